package dev.rebound.retry;

/**
 * Why a usage limit was hit; decides the default wait when the provider gives no hint (§5 of the retry policy).
 */
public enum UsageLimitReason {
    /** A per-minute limit of the account: 30 s. */
    PER_MINUTE,
    /** The model is at capacity: 45–75 s. */
    MODEL_CAPACITY,
    /** A quota or plan limit (daily, monthly, a subscription's message cap...): 30 min. */
    QUOTA,
    /** Billing or credit exhaustion: never waits; switch credential or model, else terminal. */
    BILLING,
    /**
     * The plan or key lacks what the request needs (long-context access, a paid-tier model), even when the provider
     * calls it a rate limit: never waits; another key or model may be tried at once, else terminal. Unlike billing it
     * does not block the key for other chats, which it still serves for requests that do not need the feature.
     */
    ENTITLEMENT,
    /** A usage limit of unknown period: 30 min. */
    UNKNOWN;

    /** Whether waiting can never help (billing, entitlement): switch credential or model, else give up at once. */
    public boolean neverWaits() {
        return this == BILLING || this == ENTITLEMENT;
    }
}
