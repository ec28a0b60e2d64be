package dev.rebound.api;

/**
 * The first good reply arrived on a fallback model.
 *
 * @param session the chat
 * @param turnId the turn
 * @param model the fallback model
 * @param role the fallback-chain key that was used
 */
public record RetryFallbackSucceeded(SessionRef session, String turnId, ModelRef model, String role)
        implements SessionEvent {
    @Override
    public String type() {
        return "retry_fallback_succeeded";
    }
}
