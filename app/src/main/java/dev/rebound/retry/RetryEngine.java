package dev.rebound.retry;

import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryDecidedBy;
import dev.rebound.event.RetryEndReason;
import dev.rebound.event.SessionEvent;
import dev.rebound.session.AgentEndDecision;
import dev.rebound.session.AttemptPolicy;
import dev.rebound.session.AttemptResult;
import dev.rebound.session.FallbackStatus;
import dev.rebound.session.RetryCancel;
import dev.rebound.session.RetryControl;
import dev.rebound.session.RetryStatus;
import dev.rebound.settings.RetrySettings;
import dev.rebound.transcript.AssistantMessage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retry chain of one session (§3 of the retry policy), plugged into the session at "agent end". It classifies
 * each finished call once, and either finishes the turn or schedules a cancellable retry of the same turn.
 *
 * <p>Settings are read at every decision. Time and randomness are injected: a {@link Clock} for the chain's time
 * budget and {@code retryAt}, a {@link RandomGenerator} for jitter, a {@link RetryTimer} for the wait.
 *
 * <p>Decisions are made under the engine's lock, in memory: blocking a key or cooling a model down changes the shared
 * expiry stores in memory, and they are written to disk afterwards by the stores' own writer. {@link #status()} and
 * {@link #fallback()} are snapshots read without the lock, so {@code get_state}, the banner and the fallback chip never
 * wait for a decision or the disk.
 *
 * <p>At about 380 lines (formatted) this is the one place where the steps of §3 are ordered (classify, count, usage limit, key
 * switch, fallback, refusal, hint, fail-fast, budget, revert, schedule); the steps themselves live in their own
 * classes ({@link RetryChain}, {@link Backoff}, {@link MaxDelayExceeded}, the policies).
 */
public final class RetryEngine implements AttemptPolicy, RetryControl {
    private static final Logger LOG = LoggerFactory.getLogger(RetryEngine.class);
    private final Supplier<RetrySettings> settings;
    private final Clock clock;
    private final RandomGenerator random;
    private final RetryTimer timer;
    private final ErrorClassifier classifier;
    private final RetryHints hints;
    private final UsageLimitPolicy usageLimits;
    private final ModelFallback fallback;
    private final OverflowHandler overflow;

    /** Guarded by {@code this}. */
    private RetryChain chain;
    /** Guarded by {@code this}. */
    private Pending pending;
    /** What {@link #status()} reports: replaced, under the lock, after every change of the chain. */
    private volatile RetryStatus status = RetryStatus.IDLE;

    RetryEngine(RetryEngineBuilder b) {
        this.settings = Objects.requireNonNull(b.settings, "settings");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.random = Objects.requireNonNull(b.random, "random");
        this.timer = Objects.requireNonNull(b.timer, "timer");
        this.classifier = b.classifier != null ? b.classifier : new ErrorClassifier();
        this.hints = b.hints != null ? b.hints : new RetryHints(clock);
        this.usageLimits = b.usageLimits != null ? b.usageLimits : new WaitingUsageLimits(random);
        this.fallback = b.fallback != null ? b.fallback : ModelFallback.NONE;
        this.overflow = b.overflow != null ? b.overflow : new ContextOverflowNotice();
    }

    /** A builder; settings, clock, random source and timer are required. */
    public static RetryEngineBuilder builder() {
        return new RetryEngineBuilder();
    }

    @Override
    public synchronized AgentEndDecision onAgentEnd(AttemptResult result) {
        RetryChain before = chain;
        RetryChain.Mark mark = before == null ? null : before.mark();
        try {
            return decide(result);
        } catch (RuntimeException | Error e) {
            // A decision that failed half-way (a timer, a policy throwing) is undone as far as the chain goes: no
            // retry was announced, so none may be counted or recorded; the turn then ends through abandon, which
            // records the reply as the chain's last failure once.
            chain = before;
            pending = null;
            if (before != null) {
                before.undo(mark);
            }
            throw e;
        } finally {
            publishStatus();
        }
    }

    private AgentEndDecision decide(AttemptResult result) {
        AssistantMessage message = result.message();
        if (result.userAborted()) {
            return new AgentEndDecision.Finish(
                    endChain(result.turnId(), RetryEndReason.ABORTED, AutoRetryEnd.CANCELLED_MESSAGE, message, null));
        }
        Classification c = classifier.classify(new ClassifierInput(message, message.api(), false));
        AgentEndDecision decision = decide(result, message, c);
        // §3 step 5: a stale replay resets the cached provider session, whatever ends up decided (retries off, the
        // chain exhausted): a dead previous_response_id must not fail every later turn too.
        return c.kind() == ErrorKind.STALE_REPLAY ? decision.withServerStateReset() : decision;
    }

    private AgentEndDecision decide(AttemptResult result, AssistantMessage message, Classification c) {
        if (chain != null && chain.cancelRequested && c.verdict() == Classification.Verdict.RETRY) {
            // Cancel Retry arrived while this retry's request was running: no further attempt starts.
            return new AgentEndDecision.Finish(endChain(
                    result.turnId(), RetryEndReason.CANCELLED, AutoRetryEnd.CANCELLED_MESSAGE, message, c.kind()));
        }
        return switch (c.verdict()) {
            case NOT_AN_ERROR -> {
                if (chain == null) {
                    yield AgentEndDecision.FINISH;
                }
                List<SessionEvent> events = new ArrayList<>(fallback.onSuccess());
                events.addAll(endChain(result.turnId(), RetryEndReason.SUCCEEDED, null, null, null));
                yield new AgentEndDecision.Finish(events);
            }
            case CONTEXT_OVERFLOW -> {
                List<SessionEvent> events = new ArrayList<>(
                        endChain(result.turnId(), RetryEndReason.NOT_RETRYABLE, message.errorMessage(), message, null));
                events.addAll(overflow.onOverflow(message));
                yield new AgentEndDecision.Finish(events);
            }
            case TERMINAL -> {
                List<SessionEvent> events = new ArrayList<>(
                        endChain(result.turnId(), RetryEndReason.NOT_RETRYABLE, message.errorMessage(), message, null));
                events.addAll(AdviceNotices.of(c, message));
                yield new AgentEndDecision.Finish(events);
            }
            case RETRY -> onRetryable(result.turnId(), message, c);
        };
    }

    private AgentEndDecision onRetryable(String turnId, AssistantMessage failed, Classification c) {
        RetrySettings s = settings.get();
        if (!s.enabled()) {
            blockOnly(failed, c);
            return new AgentEndDecision.Finish(
                    endChain(turnId, RetryEndReason.DISABLED, failed.errorMessage(), failed, c.kind()));
        }
        if (chain == null && s.maxRetries() <= 0) {
            blockOnly(failed, c);
            return AgentEndDecision.FINISH;
        }
        long now = clock.millis();
        if (chain == null) {
            chain = new RetryChain(now);
        }
        int attempt = ++chain.attempt;
        if (attempt > s.maxRetries()) {
            blockOnly(failed, c);
            return stop(turnId, RetryEndReason.EXHAUSTED, failed.errorMessage(), failed, c);
        }
        List<SessionEvent> events = new ArrayList<>();
        OptionalLong hint = hintOf(failed);
        // §3 step 5: the first stale replay of a chain goes again at once, with the whole conversation; a server that
        // is still "stale" after that is not helped by hurrying, so later ones back off like any failure.
        boolean firstStale = c.kind() == ErrorKind.STALE_REPLAY && chain.staleReplays++ == 0;
        long delay = firstStale ? 0 : Backoff.delay(s.baseDelayMs(), attempt, random);
        boolean switched = false;
        boolean waitDecided = false;
        RetryDecidedBy decidedBy = firstStale ? RetryDecidedBy.STALE_REPLAY : RetryDecidedBy.BACKOFF;

        if (c.kind() == ErrorKind.USAGE_LIMIT) {
            OptionalLong limitWait = chain.usageLimitWait(failed, c.usageLimitReason(), hint);
            UsageLimitPolicy.Decision d = usageLimits.onUsageLimit(
                    failed, c.usageLimitReason(), limitWait, chain.spentCredentials(failed.provider()));
            chain.spend(failed);
            switch (d) {
                case UsageLimitPolicy.Decision.Switched sw -> {
                    events.addAll(sw.events());
                    switched = true;
                    decidedBy = RetryDecidedBy.CREDENTIAL_SWITCH;
                }
                case UsageLimitPolicy.Decision.Wait w -> {
                    // The policy's wait already weighs the hint against the siblings' unblock times (§5.4).
                    delay = Math.max(delay, w.delayMs());
                    waitDecided = true;
                    decidedBy = RetryDecidedBy.USAGE_LIMIT;
                }
                case UsageLimitPolicy.Decision.GiveUp g -> {
                    if (!(s.modelFallback() && applyFallback(failed, c, hint, events))) {
                        return giveUpAfterUsageLimit(turnId, failed, c);
                    }
                    switched = true;
                    decidedBy = RetryDecidedBy.MODEL_FALLBACK;
                }
            }
        }
        // Neither a reasonless abort nor a stale replay says anything against the model: no fallback, no cooldown.
        if (!switched
                && s.modelFallback()
                && c.kind() != ErrorKind.REASONLESS_ABORT
                && c.kind() != ErrorKind.STALE_REPLAY) {
            switched = applyFallback(failed, c, hint, events);
            if (switched) {
                decidedBy = RetryDecidedBy.MODEL_FALLBACK;
            }
        }
        if (c.kind() == ErrorKind.REFUSAL && !switched) {
            // A refusal proceeds only on a fallback model; with none, the chain ends quietly.
            chain.attempt--;
            return new AgentEndDecision.Finish(
                    chain.attempt == 0
                            ? resetQuietly()
                            : endChain(turnId, RetryEndReason.NOT_RETRYABLE, failed.errorMessage(), failed, c.kind()));
        }
        if (switched) {
            delay = 0;
        } else if (!waitDecided && hint.isPresent() && hint.getAsLong() > delay) {
            delay = hint.getAsLong();
            decidedBy = RetryDecidedBy.PROVIDER_HINT;
        }
        if (!switched && s.maxDelayMs() > 0 && delay > s.maxDelayMs()) {
            String message = MaxDelayExceeded.of(delay, s.maxDelayMs(), hint, failed, c.kind())
                    .message();
            return stop(turnId, RetryEndReason.MAX_DELAY_EXCEEDED, message, failed, c);
        }
        if (s.maxElapsedMs() > 0 && now + delay - chain.startedAt > s.maxElapsedMs()) {
            return stop(turnId, RetryEndReason.ELAPSED_BUDGET_EXCEEDED, failed.errorMessage(), failed, c);
        }
        if (!switched) {
            // Before each scheduled retry: back to the primary once its cooldown is over (cooldown-expiry).
            events.addAll(fallback.revertIfDue(false));
        }
        chain.record(chain.attempt - 1, failed, c.kind(), delay, decidedBy);
        events.add(new AutoRetryStart(
                attempt,
                s.maxRetries(),
                delay,
                failed.errorMessage(),
                c.kind(),
                failed.provider() + "/" + failed.model(),
                failed.credential(),
                now + delay));
        LOG.info(
                "Retry {}/{} of turn {} in {} ms ({}, rule {}): {}",
                attempt,
                s.maxRetries(),
                turnId,
                delay,
                c.kind(),
                c.rule(),
                failed.errorMessage());
        pending = new Pending(turnId, attempt, timer.start(delay));
        return new AgentEndDecision.Retry(events, pending);
    }

    /** A usage limit that ends the chain before step 6 still blocks its key (issue 18: the last key of a chain). */
    private void blockOnly(AssistantMessage failed, Classification c) {
        if (c.kind() != ErrorKind.USAGE_LIMIT) {
            return;
        }
        OptionalLong hint = hintOf(failed);
        OptionalLong wait = chain == null ? hint : chain.usageLimitWait(failed, c.usageLimitReason(), hint);
        usageLimits.blockOnly(failed, c.usageLimitReason(), wait);
    }

    /** The provider's requested wait for this failure (§4), if it named one. */
    private OptionalLong hintOf(AssistantMessage failed) {
        return hints.parse(failed.failure(), failed.errorMessage())
                .map(h -> OptionalLong.of(h.delayMs()))
                .orElse(OptionalLong.empty());
    }

    /** A stop rule of §3: the retry just counted is not made. */
    private AgentEndDecision stop(
            String turnId, RetryEndReason reason, String finalError, AssistantMessage failed, Classification c) {
        chain.attempt--;
        return new AgentEndDecision.Finish(endChain(turnId, reason, finalError, failed, c.kind()));
    }

    private boolean applyFallback(
            AssistantMessage failed, Classification c, OptionalLong hint, List<SessionEvent> events) {
        Optional<List<SessionEvent>> applied = fallback.apply(failed, c, hint);
        applied.ifPresent(events::addAll);
        return applied.isPresent();
    }

    private AgentEndDecision giveUpAfterUsageLimit(String turnId, AssistantMessage failed, Classification c) {
        chain.attempt--;
        List<SessionEvent> events = new ArrayList<>(
                chain.attempt == 0
                        ? resetQuietly()
                        : endChain(turnId, RetryEndReason.NOT_RETRYABLE, failed.errorMessage(), failed, c.kind()));
        events.addAll(AdviceNotices.of(c, failed));
        return new AgentEndDecision.Finish(events);
    }

    /**
     * Ends the running chain, if any, returning {@code auto_retry_end} and the chain record. {@code attempt} reports the
     * retries actually made, and the last failure (if given) is recorded as the result of the last of them. A chain
     * that never made a retry still reports a stop rule (fail fast, time budget) so the user learns why it did not
     * retry; with no chain at all, nothing is reported.
     */
    private List<SessionEvent> endChain(
            String turnId, RetryEndReason reason, String finalError, AssistantMessage lastFailure, ErrorKind lastKind) {
        RetryChain ended = chain;
        chain = null;
        pending = null;
        if (ended == null) {
            return List.of();
        }
        return ended.end(turnId, reason, finalError, lastFailure, lastKind, ended.attempt, clock.millis());
    }

    private List<SessionEvent> resetQuietly() {
        chain = null;
        pending = null;
        return List.of();
    }

    @Override
    public RetryCancel cancelPending(boolean userAbort) {
        Pending p;
        synchronized (this) {
            if (chain == null) {
                return RetryCancel.NONE;
            }
            chain.cancelRequested = true;
            p = pending;
            if (p == null) {
                return RetryCancel.RUNNING_REQUEST_FLAGGED;
            }
            p.userAbort = userAbort;
        }
        p.wait.cancel();
        return RetryCancel.WAIT_CANCELLED;
    }

    @Override
    public void retryNow(java.util.OptionalInt attempt) {
        Pending p;
        synchronized (this) {
            p = pending;
            if (p == null || (attempt.isPresent() && attempt.getAsInt() != p.attempt)) {
                return;
            }
        }
        p.wait.fireNow();
    }

    @Override
    public synchronized List<SessionEvent> abandon(String turnId, String reason, AssistantMessage unjudged) {
        try {
            if (pending != null && chain != null) {
                // A retry was scheduled and never made (the turn ended in its wait, or before the wait): the last
                // retry made is the one before it, as after a cancel.
                RetryChain ended = chain;
                chain = null;
                pending = null;
                return ended.end(
                        turnId, RetryEndReason.NOT_RETRYABLE, reason, null, null, ended.attempt - 1, clock.millis());
            }
            return endChain(turnId, RetryEndReason.NOT_RETRYABLE, reason, unjudged, null);
        } finally {
            publishStatus();
        }
    }

    @Override
    public synchronized List<SessionEvent> beforeTurn() {
        return fallback.revertIfDue(true);
    }

    @Override
    public synchronized void modelChosen() {
        fallback.modelChosen();
    }

    /** The active fallback, read without the engine's lock (the fallback policy keeps a snapshot). */
    @Override
    public Optional<FallbackStatus> fallback() {
        return fallback.status();
    }

    /** A snapshot, read without the engine's lock. */
    @Override
    public RetryStatus status() {
        return status;
    }

    /** Replaces the status snapshot after a change of the chain; under the lock. */
    private void publishStatus() {
        status = chain == null ? RetryStatus.IDLE : new RetryStatus(true, chain.attempt, pending != null);
    }

    /** A scheduled retry: the session waits on it. */
    private final class Pending implements AgentEndDecision.ScheduledRetry {
        final String turnId;
        final int attempt;
        final RetryTimer.Wait wait;
        volatile boolean userAbort;

        Pending(String turnId, int attempt, RetryTimer.Wait wait) {
            this.turnId = turnId;
            this.attempt = attempt;
            this.wait = wait;
        }

        @Override
        public AgentEndDecision.Resume awaitDue() throws InterruptedException {
            RetryTimer.Wake wake = wait.await();
            synchronized (RetryEngine.this) {
                try {
                    if (pending == this) {
                        pending = null;
                    }
                    boolean cancelled = wake == RetryTimer.Wake.CANCELLED || (chain != null && chain.cancelRequested);
                    if (!cancelled) {
                        return new AgentEndDecision.Resume.Due();
                    }
                    return new AgentEndDecision.Resume.Cancelled(cancelChain());
                } finally {
                    publishStatus();
                }
            }
        }

        private List<SessionEvent> cancelChain() {
            RetryChain ended = chain;
            chain = null;
            if (ended == null) {
                return List.of();
            }
            RetryEndReason reason = userAbort ? RetryEndReason.ABORTED : RetryEndReason.CANCELLED;
            return ended.end(
                    turnId, reason, AutoRetryEnd.CANCELLED_MESSAGE, null, null, ended.attempt - 1, clock.millis());
        }
    }
}
