package dev.rebound.event;

/** Why a failed attempt is being retried (§2 of the retry policy). {@link #toString()} gives the wire name. */
public enum ErrorKind {
    /** Overload, server error, network failure, timeout, stall, truncated stream. */
    TRANSIENT("transient"),
    /** A request or token throughput limit (HTTP 429 "rate limit", "too many requests"). */
    RATE_LIMIT("rate_limit"),
    /** An account or plan limit: quota, usage cap, credits (§5). */
    USAGE_LIMIT("usage_limit"),
    /** The OpenAI Responses API no longer knows a replayed item or previous response. */
    STALE_REPLAY("stale_replay"),
    /** The provider's safety classifier refused. */
    REFUSAL("refusal"),
    /** A call stopped as aborted with no content and no abort anyone asked for. */
    REASONLESS_ABORT("reasonless_abort");

    private final String wireName;

    ErrorKind(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
