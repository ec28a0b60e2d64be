package dev.rebound.bundled.journal;

import dev.rebound.api.RetryAttempt;
import dev.rebound.api.RetryChainEnd;
import dev.rebound.api.RetryEndReason;
import java.time.Instant;
import java.util.List;

/**
 * One line of {@code retry-journal.jsonl}: a finished retry chain. Fields are written in this order, nulls included,
 * so every line has the same shape.
 *
 * @param time when the chain ended (ISO-8601, UTC)
 * @param sessionId the chat the chain ran in
 * @param chatFile the chat's file name in the sessions folder, null when the chat is not saved
 * @param turnId the turn
 * @param outcome {@code succeeded} or {@code gave_up}
 * @param giveUpReason why the chain gave up ({@code exhausted}, {@code cancelled}...), null when it succeeded
 * @param attempts the failed calls, in order
 * @param finalError the error the user was left with, null when it succeeded
 * @param startedAt when the first call failed (ISO-8601, UTC)
 * @param durationMs from the first failure to the end of the chain
 * @param appVersion the Rebound version that ran the chain
 */
public record JournalRecord(
        String time,
        String sessionId,
        String chatFile,
        String turnId,
        String outcome,
        String giveUpReason,
        List<Attempt> attempts,
        String finalError,
        String startedAt,
        long durationMs,
        String appVersion) {

    /** The value of {@code outcome} for a chain that ended with a good reply. */
    public static final String SUCCEEDED = "succeeded";
    /** The value of {@code outcome} for any other chain. */
    public static final String GAVE_UP = "gave_up";

    /** Keeps an immutable copy of the attempts. */
    public JournalRecord {
        attempts = List.copyOf(attempts);
    }

    /** The record of a chain summary from the session. */
    public static JournalRecord of(RetryChainEnd chain, String appVersion) {
        boolean succeeded = chain.reason() == RetryEndReason.SUCCEEDED;
        return new JournalRecord(
                Instant.ofEpochMilli(chain.endedAt()).toString(),
                chain.session().id(),
                chain.session().chatFile(),
                chain.turnId(),
                succeeded ? SUCCEEDED : GAVE_UP,
                succeeded ? null : String.valueOf(chain.reason()),
                chain.attempts().stream().map(Attempt::of).toList(),
                chain.finalError(),
                Instant.ofEpochMilli(chain.startedAt()).toString(),
                chain.endedAt() - chain.startedAt(),
                appVersion);
    }

    /**
     * One failed call of the chain.
     *
     * @param attempt 0 for the call that started the chain, then the number of the retry that failed
     * @param errorKind why it was retried ({@code transient}, {@code rate_limit}...), null when it was not
     * @param httpStatus the HTTP status, null when the call failed without one
     * @param model the model that failed ({@code provider/id})
     * @param credential the credential label, null when the provider has none; never a key
     * @param delayMs the wait scheduled after it, null when no retry followed
     * @param message the error text
     */
    public record Attempt(
            int attempt,
            String errorKind,
            Integer httpStatus,
            String model,
            String credential,
            Long delayMs,
            String message) {

        static Attempt of(RetryAttempt a) {
            return new Attempt(
                    a.attempt(),
                    a.errorKind() == null ? null : a.errorKind().toString(),
                    a.httpStatus(),
                    a.model() == null ? null : a.model().toString(),
                    a.credential(),
                    a.delayMs(),
                    a.errorMessage());
        }
    }
}
