package dev.rebound.api;

/**
 * A message begins: a user prompt (already complete) or an assistant reply about to stream (no content and no stop
 * reason yet).
 *
 * @param session the chat
 * @param turnId the turn
 * @param message the message as it begins
 */
public record MessageStart(SessionRef session, String turnId, ChatMessage message) implements SessionEvent {
    @Override
    public String type() {
        return "message_start";
    }
}
