package dev.rebound.ui.model;

import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryEndReason;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one reply went through before it ended: every call of its retry chain, in order, with its model, key label,
 * error, HTTP status, the wait after it and what decided that wait, then the call that answered (or the chain's end).
 * Drawn from the reply's own messages and the chain's saved record, so a reopened chat shows exactly what the live
 * chat showed. Holds labels only, never a key.
 *
 * @param outcome how the chain ended
 * @param reason the chain's end reason as the retry engine recorded it
 * @param retries the retries made
 * @param elapsedMs from the first call's start to the start of the last call (to the chain's end when none answered)
 * @param firstModel the model of the first call ({@code provider/id})
 * @param lastModel the model of the last call ({@code provider/id})
 * @param calls the calls, failed ones first, in order
 * @param finalError the chain's final error, or null when it recovered
 */
public record RetryRecord(
        Outcome outcome,
        RetryEndReason reason,
        int retries,
        long elapsedMs,
        String firstModel,
        String lastModel,
        List<Call> calls,
        String finalError) {

    /** How the chain ended, as the record line words it. */
    public enum Outcome {
        /** A retry (or a switch) brought the answer. */
        RECOVERED,
        /** The chain gave up, was exhausted, or failed fast. */
        FAILED,
        /** The user cancelled the retry. */
        CANCELLED,
        /** The user stopped the turn. */
        STOPPED
    }

    /**
     * One call of the chain.
     *
     * @param number 1 for the first call, then one more per retry
     * @param startedAt epoch milliseconds when the call started
     * @param model {@code provider/id}
     * @param credential the key's label, or null (no key, or a local server)
     * @param failure what went wrong, or null for the call that answered (or was stopped or cancelled while running)
     * @param delayMs the wait after this call, or null when no retry followed it
     * @param decidedBy what decided that wait ({@code backoff}, {@code provider_hint}…), or null when not recorded
     * @param requestId the provider's request id of a failed call, when it sent one
     */
    public record Call(
            int number,
            long startedAt,
            String model,
            String credential,
            Failure failure,
            Long delayMs,
            String decidedBy,
            String requestId) {}

    /**
     * Why a call failed.
     *
     * @param kind the retry policy's error kind ({@code transient}, {@code rate_limit}…), or null when not retryable
     * @param httpStatus the HTTP status, or null
     * @param label a short name for people: {@code overloaded (529)}, {@code connection lost}
     * @param message the error text, as the provider gave it (secrets already scrubbed)
     */
    public record Failure(String kind, Integer httpStatus, String label, String message) {}

    /** Copies the calls. */
    public RetryRecord {
        calls = List.copyOf(calls);
    }

    /**
     * The record of a reply.
     *
     * @param replies the reply's calls as their messages ended, in order (a call that never ended may be missing)
     * @param chain the chain's record
     */
    public static RetryRecord of(List<AssistantMessage> replies, RetryChainEnd chain) {
        List<RetryAttempt> attempts = chain.attempts();
        List<Call> calls = new ArrayList<>();
        for (int i = 0; i < attempts.size(); i++) {
            RetryAttempt attempt = attempts.get(i);
            AssistantMessage message = i < replies.size() ? replies.get(i) : null;
            ProviderFailure failure = message == null ? null : message.failure();
            // A call the user stopped did not fail: the timeline says it was stopped.
            boolean stopped = message != null && message.stopReason() == StopReason.ABORTED;
            calls.add(new Call(
                    i + 1,
                    message == null ? chain.startedAt() : message.callStart(),
                    attempt.model(),
                    attempt.credential(),
                    stopped
                            ? null
                            : new Failure(
                                    attempt.errorKind() == null
                                            ? null
                                            : attempt.errorKind().toString(),
                                    attempt.httpStatus(),
                                    FailureLabels.of(attempt.errorKind(), attempt.httpStatus(), failure),
                                    attempt.errorMessage()),
                    attempt.delayMs(),
                    attempt.decidedBy() == null ? null : attempt.decidedBy().toString(),
                    failure == null ? null : requestId(failure)));
        }
        Outcome outcome = switch (chain.reason()) {
            case SUCCEEDED -> Outcome.RECOVERED;
            case CANCELLED -> Outcome.CANCELLED;
            case ABORTED -> Outcome.STOPPED;
            default -> Outcome.FAILED;
        };
        boolean lastCallRan = replies.size() > attempts.size();
        if (lastCallRan) {
            AssistantMessage last = replies.get(attempts.size());
            calls.add(new Call(
                    attempts.size() + 1,
                    last.callStart(),
                    last.provider() + "/" + last.model(),
                    last.credential(),
                    null,
                    null,
                    null,
                    null));
        }
        long firstStart = calls.isEmpty() ? chain.startedAt() : calls.getFirst().startedAt();
        long end = outcome == Outcome.RECOVERED && lastCallRan
                ? calls.getLast().startedAt()
                : Math.max(chain.endedAt(), firstStart);
        // Retries are calls made after the first; a wait cancelled or stopped before its call is not one.
        int retries = Math.max(0, Math.max(replies.size(), outcome == Outcome.RECOVERED ? attempts.size() + 1 : 0) - 1);
        return new RetryRecord(
                outcome,
                chain.reason(),
                retries,
                Math.max(0, end - firstStart),
                calls.isEmpty() ? null : calls.getFirst().model(),
                calls.isEmpty() ? null : calls.getLast().model(),
                calls,
                chain.finalError());
    }

    /** Whether the last call ran on another model than the first (a fallback answered, or was tried last). */
    public boolean fellBack() {
        return firstModel != null && lastModel != null && !firstModel.equals(lastModel);
    }

    /**
     * The first model other than the first call's that a call ran on, or null: a fallback that was tried, also when
     * the chain went back to the first model before it ended.
     */
    public String fallbackTried() {
        return calls.stream()
                .map(Call::model)
                .filter(m -> firstModel != null && !firstModel.equals(m))
                .findFirst()
                .orElse(null);
    }

    /** Whether the last call is one a wait was scheduled after: a retry that was due but never ran. */
    public boolean endedDuringAWait() {
        return outcome != Outcome.RECOVERED
                && !calls.isEmpty()
                && calls.getLast().delayMs() != null;
    }

    /** Whether a call ran on another key than the one before it. */
    public boolean switchedKey() {
        for (int i = 1; i < calls.size(); i++) {
            Call before = calls.get(i - 1);
            Call now = calls.get(i);
            if (before.model().equals(now.model()) && !Objects.equals(before.credential(), now.credential())) {
                return true;
            }
        }
        return false;
    }

    /** The request id of a failure, from the headers a provider names it in. */
    private static String requestId(ProviderFailure failure) {
        for (String name : List.of("request-id", "x-request-id", "apim-request-id", "cf-ray")) {
            String id = failure.header(name);
            if (id != null && !id.isBlank()) {
                return id;
            }
        }
        return null;
    }
}
