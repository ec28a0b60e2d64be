package dev.rebound.retry;

/**
 * Why a usage limit was hit; decides the default wait when the provider gives no hint (§5 of the retry policy).
 */
public enum UsageLimitReason {
    /** A per-minute limit of the account: 30 s. */
    PER_MINUTE,
    /** The model is at capacity: 45–75 s. */
    MODEL_CAPACITY,
    /** A quota or plan limit (daily, monthly...): 30 min. */
    QUOTA,
    /** Billing or credit exhaustion: never waits; switch credential or model, else terminal. */
    BILLING,
    /** A usage limit of unknown period: 30 min. */
    UNKNOWN
}
