package dev.rebound.event;

/**
 * The session went back to its primary model once the primary's cooldown (and any refusal pin) had expired.
 *
 * @param from the fallback model left ({@code provider/id})
 * @param to the primary model
 */
public record RetryFallbackReverted(String from, String to) implements SessionEvent {
    @Override
    public String type() {
        return "retry_fallback_reverted";
    }
}
