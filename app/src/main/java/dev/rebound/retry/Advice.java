package dev.rebound.retry;

/**
 * What a person can do about a failure that Rebound does not retry because no wait can fix it; the engine turns it
 * into a notice (see {@link AdviceNotices}), like the context-overflow notice.
 */
public enum Advice {
    /** The request alone is larger than the provider's per-minute token limit: shorten the chat or change the tier. */
    REQUEST_EXCEEDS_RATE_LIMIT,
    /** A local model server cannot load the model (memory, a dead runner, a missing or unsupported file). */
    MODEL_CANNOT_LOAD,
    /** The plan or key lacks what the request needs (long context, a paid-tier model). */
    NOT_ENTITLED
}
