package dev.rebound.event;

/**
 * The session moved to a fallback model (§6 of the retry policy).
 *
 * @param from the model that failed ({@code provider/id})
 * @param to the model now in use
 * @param role the fallback-chain key that was used ({@code default}, {@code openai/*}, an exact selector...)
 */
public record RetryFallbackApplied(String from, String to, String role) implements SessionEvent {
    @Override
    public String type() {
        return "retry_fallback_applied";
    }
}
