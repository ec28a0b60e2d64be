package dev.rebound.api;

/**
 * The session went back to its primary model once the primary's cooldown had expired.
 *
 * @param session the chat
 * @param turnId the turn that starts on the primary again, or null when it happened between turns
 * @param from the fallback model left
 * @param to the primary model
 */
public record RetryFallbackReverted(SessionRef session, String turnId, ModelRef from, ModelRef to)
        implements SessionEvent {
    @Override
    public String type() {
        return "retry_fallback_reverted";
    }
}
