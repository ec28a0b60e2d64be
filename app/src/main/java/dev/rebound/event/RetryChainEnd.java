package dev.rebound.event;

import java.util.List;

/**
 * The per-turn record of a retry chain, emitted right after {@link AutoRetryEnd}: every failed call with its kind,
 * status, model, credential and delay, and the outcome. This is the "why did it retry?" record.
 *
 * @param turnId the turn
 * @param attempts the failed calls, in order
 * @param reason how the chain ended
 * @param finalError the final error, null on success
 * @param startedAt epoch milliseconds of the first failure
 * @param endedAt epoch milliseconds of the end
 */
public record RetryChainEnd(
        String turnId,
        List<RetryAttempt> attempts,
        RetryEndReason reason,
        String finalError,
        long startedAt,
        long endedAt)
        implements SessionEvent {
    public RetryChainEnd {
        attempts = List.copyOf(attempts);
    }

    @Override
    public String type() {
        return "retry_chain_end";
    }
}
