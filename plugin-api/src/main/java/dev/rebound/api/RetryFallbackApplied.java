package dev.rebound.api;

/**
 * The session moved to a fallback model (§6 of the retry policy).
 *
 * @param session the chat
 * @param turnId the turn
 * @param from the model that failed
 * @param to the model now in use
 * @param role the fallback-chain key that was used ({@code default}, {@code openai/*}, an exact selector...)
 */
public record RetryFallbackApplied(SessionRef session, String turnId, ModelRef from, ModelRef to, String role)
        implements SessionEvent {
    @Override
    public String type() {
        return "retry_fallback_applied";
    }
}
