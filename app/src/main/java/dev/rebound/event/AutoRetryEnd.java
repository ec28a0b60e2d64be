package dev.rebound.event;

/**
 * A retry chain ended (§8 of the retry policy).
 *
 * @param success true when a good reply arrived
 * @param attempt the number of retries actually made
 * @param finalError the original error text of the last failure (or {@code Retry cancelled}, or the fail-fast
 *     message); null on success
 * @param reason why the chain ended
 */
public record AutoRetryEnd(boolean success, int attempt, String finalError, RetryEndReason reason)
        implements SessionEvent {
    /** The final error of a chain the user cancelled. */
    public static final String CANCELLED_MESSAGE = "Retry cancelled";

    @Override
    public String type() {
        return "auto_retry_end";
    }
}
