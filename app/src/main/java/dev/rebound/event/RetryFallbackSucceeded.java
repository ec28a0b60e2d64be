package dev.rebound.event;

/**
 * The first good reply arrived on a fallback model.
 *
 * @param model the fallback model ({@code provider/id})
 * @param role the fallback-chain key that was used
 */
public record RetryFallbackSucceeded(String model, String role) implements SessionEvent {
    @Override
    public String type() {
        return "retry_fallback_succeeded";
    }
}
