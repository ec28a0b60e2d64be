package dev.rebound.session;

/**
 * Whether a retry chain runs.
 *
 * @param retrying true from the first retryable failure of a chain until the chain ends
 * @param attempt the chain's current retry number (0 when idle)
 * @param waiting true while a backoff wait is pending (Cancel Retry and Retry now act on it)
 */
public record RetryStatus(boolean retrying, int attempt, boolean waiting) {
    public static final RetryStatus IDLE = new RetryStatus(false, 0, false);
}
