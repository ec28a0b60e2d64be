package dev.rebound.api;

/**
 * A piece of a streaming assistant reply. These are the only events a plugin whose queue overflows may miss.
 *
 * @param session the chat
 * @param turnId the turn
 * @param messageId the reply being streamed
 * @param kind answer text or reasoning
 * @param delta the new characters
 */
public record MessageUpdate(SessionRef session, String turnId, String messageId, DeltaKind kind, String delta)
        implements SessionEvent {
    @Override
    public String type() {
        return "message_update";
    }
}
