package dev.rebound.api;

/** A message of a chat: what the user said or what a model answered. */
public sealed interface ChatMessage permits UserMessage, AssistantMessage {
    /** A unique id within the session. */
    String id();

    /** {@code user} or {@code assistant}. */
    String role();

    /** Epoch milliseconds when the message was completed (or began, for an assistant reply still streaming). */
    long timestamp();
}
