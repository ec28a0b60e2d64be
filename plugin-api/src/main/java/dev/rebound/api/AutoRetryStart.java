package dev.rebound.api;

/**
 * A retry has been scheduled (§8 of the retry policy). Follows the {@code agent_end{willRetry:true}} of the failed call.
 *
 * @param session the chat
 * @param turnId the turn
 * @param attempt 1-based number of this retry within the chain
 * @param maxAttempts {@code retry.maxRetries} at the time of the decision
 * @param delayMs how long the session waits before the retry (0 after a credential or model switch)
 * @param errorMessage the error of the failed call, unchanged
 * @param errorKind why it is retried
 * @param model the model that failed
 * @param credential the label of the credential that failed, or null; never a key
 * @param retryAt epoch milliseconds when the retry is due
 */
public record AutoRetryStart(
        SessionRef session,
        String turnId,
        int attempt,
        int maxAttempts,
        long delayMs,
        String errorMessage,
        ErrorKind errorKind,
        ModelRef model,
        String credential,
        long retryAt)
        implements SessionEvent {
    @Override
    public String type() {
        return "auto_retry_start";
    }
}
