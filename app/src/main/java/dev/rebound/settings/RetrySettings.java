package dev.rebound.settings;

import java.util.List;
import java.util.Map;

/**
 * The {@code retry} group of settings (§9 of the retry policy).
 *
 * @param enabled master switch
 * @param maxRetries retries per chain (0 = none)
 * @param baseDelayMs first backoff step
 * @param maxDelayMs fail fast when asked to wait longer; {@code <= 0} disables the cap
 * @param maxElapsedMs time budget of one chain; {@code <= 0} disables it
 * @param modelFallback allow model fallback
 * @param fallbackChains chain key to ordered model selectors
 * @param fallbackRevertPolicy when to return to the primary model
 * @param refusalPinMs how long a refusal fallback is pinned
 */
public record RetrySettings(
        boolean enabled,
        int maxRetries,
        long baseDelayMs,
        long maxDelayMs,
        long maxElapsedMs,
        boolean modelFallback,
        Map<String, List<String>> fallbackChains,
        RevertPolicy fallbackRevertPolicy,
        long refusalPinMs) {

    public static final RetrySettings DEFAULTS =
            new RetrySettings(true, 10, 500, 300_000, 600_000, true, Map.of(), RevertPolicy.COOLDOWN_EXPIRY, 1_800_000);

    public RetrySettings {
        fallbackChains = fallbackChains == null ? Map.of() : Map.copyOf(fallbackChains);
    }

    /** {@code retry.fallbackRevertPolicy}. {@link #toString()} gives the settings value. */
    public enum RevertPolicy {
        COOLDOWN_EXPIRY("cooldown-expiry"),
        NEVER("never");

        private final String value;

        RevertPolicy(String value) {
            this.value = value;
        }

        /** The policy for a settings value, or null when there is none of that name. */
        public static RevertPolicy fromValue(String value) {
            for (RevertPolicy p : values()) {
                if (p.value.equals(value)) {
                    return p;
                }
            }
            return null;
        }

        @Override
        public String toString() {
            return value;
        }
    }
}
