package dev.rebound.api;

/**
 * A message is complete: the user prompt, or the assistant reply with its stop reason (and its error, when the call
 * failed).
 *
 * @param session the chat
 * @param turnId the turn
 * @param message the complete message
 */
public record MessageEnd(SessionRef session, String turnId, ChatMessage message) implements SessionEvent {
    @Override
    public String type() {
        return "message_end";
    }
}
