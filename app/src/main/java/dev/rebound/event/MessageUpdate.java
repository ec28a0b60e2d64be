package dev.rebound.event;

/**
 * A piece of a streaming assistant reply.
 *
 * @param messageId the reply being streamed
 * @param kind {@code text} or {@code thinking}
 * @param delta the new characters
 */
public record MessageUpdate(String messageId, String kind, String delta) implements SessionEvent {
    /** Answer text. */
    public static final String TEXT = "text";
    /** Reasoning text. */
    public static final String THINKING = "thinking";

    @Override
    public String type() {
        return "message_update";
    }
}
