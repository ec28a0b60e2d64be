package dev.rebound.event;

/** Why a retry chain ended. {@link #toString()} gives the wire name. */
public enum RetryEndReason {
    /** A good reply arrived. */
    SUCCEEDED("succeeded"),
    /** {@code retry.maxRetries} retries were made and the last one failed too. */
    EXHAUSTED("exhausted"),
    /** The wait needed exceeded {@code retry.maxDelayMs}. */
    MAX_DELAY_EXCEEDED("max_delay_exceeded"),
    /** The chain would have run past {@code retry.maxElapsedMs}. */
    ELAPSED_BUDGET_EXCEEDED("elapsed_budget_exceeded"),
    /** The user cancelled the pending retry. */
    CANCELLED("cancelled"),
    /** The user stopped the turn. */
    ABORTED("aborted"),
    /** A later attempt failed in a way that is never retried (authentication, bad request, shown output...). */
    NOT_RETRYABLE("not_retryable"),
    /** Automatic retry was switched off while the chain ran. */
    DISABLED("disabled");

    private final String wireName;

    RetryEndReason(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
