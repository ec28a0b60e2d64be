package dev.rebound.retry;

import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryDecidedBy;
import dev.rebound.event.RetryEndReason;
import dev.rebound.event.SessionEvent;
import dev.rebound.transcript.AssistantMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The state of one running retry chain of a turn: its failed calls, its retry count, the usage limits each credential
 * hit in it and the credentials it spent. Confined to the retry engine's lock.
 */
final class RetryChain {
    final long startedAt;
    private final List<RetryAttempt> attempts = new ArrayList<>();
    /** Usage limits hit in this chain by each provider/credential/model, counted for the escalation of §5.1. */
    private final Map<String, Integer> usageLimits = new HashMap<>();
    /** Provider to the labels of its credentials that hit a usage limit in this chain. */
    private final Map<String, Set<String>> spent = new HashMap<>();
    /** The retry number being decided or made (retries made so far, once a decision is final). */
    int attempt;
    /** Stale replays met in this chain: only the first is retried at once. */
    int staleReplays;
    /** The user cancelled while no wait was pending (a retry's request was running). */
    boolean cancelRequested;

    RetryChain(long startedAt) {
        this.startedAt = startedAt;
    }

    /** Where a decision started: what {@link #undo} returns the chain to if that decision fails half-way. */
    record Mark(int attempt, int staleReplays, int recorded) {}

    Mark mark() {
        return new Mark(attempt, staleReplays, attempts.size());
    }

    /**
     * Back to the mark: the count and the records a failed decision made are dropped. What it learnt about usage
     * limits and spent keys stays: those are facts about the providers, whatever became of the decision.
     */
    void undo(Mark mark) {
        attempt = mark.attempt();
        staleReplays = mark.staleReplays();
        attempts.subList(mark.recorded(), attempts.size()).clear();
    }

    /** Records a failed call that a retry follows after {@code delayMs}, or that ended the chain ({@code null}). */
    void record(int number, AssistantMessage failed, ErrorKind kind, Long delayMs) {
        record(number, failed, kind, delayMs, null);
    }

    /** Records a failed call that a retry follows after {@code delayMs}, with what decided that wait. */
    void record(int number, AssistantMessage failed, ErrorKind kind, Long delayMs, RetryDecidedBy decidedBy) {
        Integer status = failed.failure() == null ? null : failed.failure().httpStatus();
        attempts.add(new RetryAttempt(
                number,
                kind,
                status,
                failed.provider() + "/" + failed.model(),
                failed.credential(),
                delayMs,
                failed.errorMessage(),
                decidedBy));
    }

    /**
     * The chain's closing events: {@code auto_retry_end} with the retries made, then the per-turn record. The last
     * failure, when given, is recorded as the result of the last retry.
     */
    List<SessionEvent> end(
            String turnId,
            RetryEndReason reason,
            String finalError,
            AssistantMessage lastFailure,
            ErrorKind lastKind,
            int made,
            long now) {
        if (lastFailure != null) {
            record(attempt, lastFailure, lastKind, null);
        }
        boolean success = reason == RetryEndReason.SUCCEEDED;
        String error = success ? null : finalError;
        return List.of(
                new AutoRetryEnd(success, made, error, reason),
                new RetryChainEnd(turnId, attempts, reason, error, startedAt, now));
    }

    /**
     * The wait of a usage limit (§5.1): the provider's hint is believed; when the same credential hits a usage limit
     * again in this chain, the hint doubles per repeat, never beyond the reason's default (a hint longer than the
     * default is kept as it is). Without a hint: empty, the reason's default. A call that sent nothing (every key
     * blocked) and limits that never wait are not counted as repeats.
     */
    OptionalLong usageLimitWait(AssistantMessage failed, UsageLimitReason reason, OptionalLong hint) {
        if (UsageLimitPolicy.sentNothing(failed) || reason.neverWaits()) {
            return hint;
        }
        int repeats =
                usageLimits.merge(failed.provider() + "/" + failed.credential() + "/" + failed.model(), 1, Integer::sum)
                        - 1;
        if (hint.isEmpty() || repeats == 0) {
            return hint;
        }
        long provided = hint.getAsLong();
        long ceiling = Math.max(provided, WaitingUsageLimits.longestDefaultWait(reason));
        long doubled = provided;
        for (int i = 0; i < repeats && doubled < ceiling; i++) {
            doubled = Math.max(doubled * 2, 1);
        }
        return OptionalLong.of(Math.min(doubled, ceiling));
    }

    /** The labels of the provider's credentials that hit a usage limit in this chain. */
    Set<String> spentCredentials(String provider) {
        return Set.copyOf(spent.getOrDefault(provider, Set.of()));
    }

    /** Remembers that the failed call's credential hit a usage limit (unless nothing was sent). */
    void spend(AssistantMessage failed) {
        if (failed.credential() != null && !UsageLimitPolicy.sentNothing(failed)) {
            spent.computeIfAbsent(failed.provider(), p -> new HashSet<>()).add(failed.credential());
        }
    }
}
