package dev.rebound.api;

/**
 * A retry chain ended (§8 of the retry policy).
 *
 * @param session the chat
 * @param turnId the turn
 * @param success true when a good reply arrived
 * @param attempt the number of retries actually made
 * @param finalError the error text of the last failure (or {@code Retry cancelled}, or why the chain stopped); null on
 *     success
 * @param reason why the chain ended
 */
public record AutoRetryEnd(
        SessionRef session, String turnId, boolean success, int attempt, String finalError, RetryEndReason reason)
        implements SessionEvent {
    @Override
    public String type() {
        return "auto_retry_end";
    }
}
