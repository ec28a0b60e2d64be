package dev.rebound.api;

import java.util.List;

/**
 * The record of a finished retry chain, right after {@link AutoRetryEnd}: every failed call with its kind, status,
 * model, credential and delay, and the outcome. This is the "why did it retry?" record.
 *
 * @param session the chat
 * @param turnId the turn
 * @param attempts the failed calls, in order
 * @param reason how the chain ended
 * @param finalError the final error, null on success
 * @param startedAt epoch milliseconds of the first failure
 * @param endedAt epoch milliseconds of the end
 */
public record RetryChainEnd(
        SessionRef session,
        String turnId,
        List<RetryAttempt> attempts,
        RetryEndReason reason,
        String finalError,
        long startedAt,
        long endedAt)
        implements SessionEvent {
    /** Keeps an immutable copy of the attempts. */
    public RetryChainEnd {
        attempts = List.copyOf(attempts);
    }

    @Override
    public String type() {
        return "retry_chain_end";
    }
}
