package dev.rebound.retry;

import dev.rebound.transcript.AssistantMessage;
import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryEndReason;
import dev.rebound.event.SessionEvent;
import dev.rebound.session.AgentEndDecision;
import dev.rebound.session.AgentEndHandler;
import dev.rebound.session.AttemptResult;
import dev.rebound.session.RetryCancel;
import dev.rebound.session.RetryStatus;
import dev.rebound.settings.RetrySettings;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
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
 */
public final class RetryEngine implements AgentEndHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RetryEngine.class);
    /** The cap of the local backoff, before jitter. */
    static final long MAX_BACKOFF_MS = 8_000;

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
    private Chain chain;
    private Pending pending;

    private RetryEngine(Builder b) {
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

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public synchronized AgentEndDecision onAgentEnd(AttemptResult result) {
        AssistantMessage message = result.message();
        if (result.userAborted()) {
            return new AgentEndDecision.Finish(endChain(result.turnId(), RetryEndReason.ABORTED,
                    AutoRetryEnd.CANCELLED_MESSAGE, message, null));
        }
        Classification c = classifier.classify(new ClassifierInput(message, message.api(), false));
        if (chain != null && chain.cancelRequested && c.verdict() == Classification.Verdict.RETRY) {
            // Cancel Retry arrived while this retry's request was running: no further attempt starts.
            return new AgentEndDecision.Finish(endChain(result.turnId(), RetryEndReason.CANCELLED,
                    AutoRetryEnd.CANCELLED_MESSAGE, message, c.kind()));
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
                List<SessionEvent> events = new ArrayList<>(endChain(result.turnId(), RetryEndReason.NOT_RETRYABLE,
                        message.errorMessage(), message, null));
                events.addAll(overflow.onOverflow(message));
                yield new AgentEndDecision.Finish(events);
            }
            case TERMINAL -> {
                List<SessionEvent> events = new ArrayList<>(endChain(result.turnId(), RetryEndReason.NOT_RETRYABLE,
                        message.errorMessage(), message, null));
                events.addAll(AdviceNotices.of(c, message));
                yield new AgentEndDecision.Finish(events);
            }
            case RETRY -> onRetryable(result.turnId(), message, c);
        };
    }

    private AgentEndDecision onRetryable(String turnId, AssistantMessage failed, Classification c) {
        RetrySettings s = settings.get();
        if (!s.enabled()) {
            return new AgentEndDecision.Finish(endChain(turnId, RetryEndReason.DISABLED, failed.errorMessage(), failed,
                    c.kind()));
        }
        if (chain == null && s.maxRetries() <= 0) {
            return AgentEndDecision.FINISH;
        }
        long now = clock.millis();
        if (chain == null) {
            chain = new Chain(now);
        }
        int attempt = ++chain.attempt;
        if (attempt > s.maxRetries()) {
            return stop(turnId, RetryEndReason.EXHAUSTED, failed.errorMessage(), failed, c);
        }
        List<SessionEvent> events = new ArrayList<>();
        OptionalLong hint = hints.parse(failed.failure(), failed.errorMessage())
                .map(h -> OptionalLong.of(h.delayMs())).orElse(OptionalLong.empty());
        long delay = c.kind() == ErrorKind.STALE_REPLAY ? 0 : backoff(s.baseDelayMs(), attempt);
        boolean switched = false;
        boolean waitDecided = false;

        if (c.kind() == ErrorKind.USAGE_LIMIT) {
            OptionalLong limitWait = chain.usageLimitWait(failed, c.usageLimitReason(), hint);
            UsageLimitPolicy.Decision d = usageLimits.onUsageLimit(failed, c.usageLimitReason(), limitWait,
                    chain.spentCredentials(failed.provider()));
            chain.spend(failed);
            switch (d) {
                case UsageLimitPolicy.Decision.Switched sw -> {
                    events.addAll(sw.events());
                    switched = true;
                }
                case UsageLimitPolicy.Decision.Wait w -> {
                    // The policy's wait already weighs the hint against the siblings' unblock times (§5.4).
                    delay = Math.max(delay, w.delayMs());
                    waitDecided = true;
                }
                case UsageLimitPolicy.Decision.GiveUp g -> {
                    if (!(s.modelFallback() && applyFallback(failed, c, hint, events))) {
                        return giveUpAfterUsageLimit(turnId, failed, c);
                    }
                    switched = true;
                }
            }
        }
        if (!switched && s.modelFallback() && c.kind() != ErrorKind.REASONLESS_ABORT) {
            switched = applyFallback(failed, c, hint, events);
        }
        if (c.kind() == ErrorKind.REFUSAL && !switched) {
            // A refusal proceeds only on a fallback model; with none, the chain ends quietly.
            chain.attempt--;
            return new AgentEndDecision.Finish(chain.attempt == 0 ? resetQuietly()
                    : endChain(turnId, RetryEndReason.NOT_RETRYABLE, failed.errorMessage(), failed, c.kind()));
        }
        if (switched) {
            delay = 0;
        } else if (!waitDecided && hint.isPresent() && hint.getAsLong() > delay) {
            delay = hint.getAsLong();
        }
        if (!switched && s.maxDelayMs() > 0 && delay > s.maxDelayMs()) {
            MaxDelayExceeded.Cause cause = UsageLimitPolicy.sentNothing(failed) ? MaxDelayExceeded.Cause.KEYS_BLOCKED
                    : hint.isPresent() && hint.getAsLong() == delay ? MaxDelayExceeded.Cause.PROVIDER
                    : MaxDelayExceeded.Cause.REBOUND;
            Long hinted = cause == MaxDelayExceeded.Cause.REBOUND && hint.isPresent() ? hint.getAsLong() : null;
            String message = new MaxDelayExceeded(delay, s.maxDelayMs(), cause, String.valueOf(c.kind()), hinted,
                    failed.errorMessage()).message();
            return stop(turnId, RetryEndReason.MAX_DELAY_EXCEEDED, message, failed, c);
        }
        if (s.maxElapsedMs() > 0 && now + delay - chain.startedAt > s.maxElapsedMs()) {
            return stop(turnId, RetryEndReason.ELAPSED_BUDGET_EXCEEDED, failed.errorMessage(), failed, c);
        }
        if (!switched) {
            // Before each scheduled retry: back to the primary once its cooldown is over (cooldown-expiry).
            events.addAll(fallback.revertIfDue(false));
        }
        chain.attempts.add(record(chain.attempt - 1, failed, c.kind(), delay));
        events.add(new AutoRetryStart(attempt, s.maxRetries(), delay, failed.errorMessage(), c.kind(),
                failed.provider() + "/" + failed.model(), failed.credential(), now + delay));
        LOG.info("Retry {}/{} of turn {} in {} ms ({}, rule {}): {}", attempt, s.maxRetries(), turnId, delay,
                c.kind(), c.rule(), failed.errorMessage());
        pending = new Pending(turnId, attempt, timer.start(delay));
        return new AgentEndDecision.Retry(events, pending);
    }

    /** A stop rule of §3: the retry just counted is not made. */
    private AgentEndDecision stop(String turnId, RetryEndReason reason, String finalError, AssistantMessage failed,
                                  Classification c) {
        chain.attempt--;
        return new AgentEndDecision.Finish(endChain(turnId, reason, finalError, failed, c.kind()));
    }

    private boolean applyFallback(AssistantMessage failed, Classification c, OptionalLong hint,
                                  List<SessionEvent> events) {
        Optional<List<SessionEvent>> applied = fallback.apply(failed, c, hint);
        applied.ifPresent(events::addAll);
        return applied.isPresent();
    }

    private AgentEndDecision giveUpAfterUsageLimit(String turnId, AssistantMessage failed, Classification c) {
        chain.attempt--;
        List<SessionEvent> events = new ArrayList<>(chain.attempt == 0 ? resetQuietly()
                : endChain(turnId, RetryEndReason.NOT_RETRYABLE, failed.errorMessage(), failed, c.kind()));
        events.addAll(AdviceNotices.of(c, failed));
        return new AgentEndDecision.Finish(events);
    }

    /** {@code min(base · 2^(attempt−1), 8 s)} times a jitter factor in [0.75, 1.00]. */
    private long backoff(long baseDelayMs, int attempt) {
        long nominal = MAX_BACKOFF_MS;
        if (attempt - 1 < 62 && baseDelayMs <= (MAX_BACKOFF_MS >> Math.min(attempt - 1, 62))) {
            nominal = Math.min(baseDelayMs << (attempt - 1), MAX_BACKOFF_MS);
        }
        double jitter = 0.75 + 0.25 * random.nextDouble();
        return Math.round(nominal * jitter);
    }

    /**
     * Ends the running chain, if any, returning {@code auto_retry_end} and the chain record. {@code attempt} reports the
     * retries actually made, and the last failure (if given) is recorded as the result of the last of them. A chain
     * that never made a retry still reports a stop rule (fail fast, time budget) so the user learns why it did not
     * retry; with no chain at all, nothing is reported.
     */
    private List<SessionEvent> endChain(String turnId, RetryEndReason reason, String finalError,
                                        AssistantMessage lastFailure, ErrorKind lastKind) {
        Chain ended = chain;
        chain = null;
        pending = null;
        if (ended == null) {
            return List.of();
        }
        if (lastFailure != null) {
            ended.attempts.add(record(ended.attempt, lastFailure, lastKind, null));
        }
        boolean success = reason == RetryEndReason.SUCCEEDED;
        return List.of(new AutoRetryEnd(success, ended.attempt, success ? null : finalError, reason),
                new RetryChainEnd(turnId, ended.attempts, reason, success ? null : finalError, ended.startedAt,
                        clock.millis()));
    }

    private List<SessionEvent> resetQuietly() {
        chain = null;
        pending = null;
        return List.of();
    }

    private static RetryAttempt record(int attempt, AssistantMessage failed, ErrorKind kind, Long delayMs) {
        Integer status = failed.failure() == null ? null : failed.failure().httpStatus();
        return new RetryAttempt(attempt, kind, status, failed.provider() + "/" + failed.model(), failed.credential(),
                delayMs, failed.errorMessage());
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
    public synchronized List<SessionEvent> abandon(String turnId, String reason) {
        return endChain(turnId, RetryEndReason.NOT_RETRYABLE, reason, null, null);
    }

    @Override
    public synchronized List<SessionEvent> beforeTurn() {
        return fallback.revertIfDue(true);
    }

    @Override
    public synchronized void modelChosen() {
        fallback.modelChosen();
    }

    @Override
    public synchronized Optional<dev.rebound.session.FallbackStatus> fallback() {
        return fallback.status();
    }

    @Override
    public synchronized RetryStatus status() {
        return chain == null ? RetryStatus.IDLE : new RetryStatus(true, chain.attempt, pending != null);
    }

    /** The state of a running chain. */
    private static final class Chain {
        final long startedAt;
        final List<RetryAttempt> attempts = new ArrayList<>();
        /** Usage limits hit in this chain by each provider/credential/model, counted for the escalation of §5.1. */
        final Map<String, Integer> usageLimits = new HashMap<>();
        /** Provider to the labels of its credentials that hit a usage limit in this chain. */
        final Map<String, Set<String>> spent = new HashMap<>();
        int attempt;
        /** The user cancelled while no wait was pending (a retry's request was running). */
        boolean cancelRequested;

        Chain(long startedAt) {
            this.startedAt = startedAt;
        }

        /**
         * The wait of a usage limit (§5.1): the provider's hint is believed; when the same credential hits a usage
         * limit again in this chain, the hint doubles per repeat, never beyond the reason's default (a hint longer
         * than the default is kept as it is). Without a hint: empty, the reason's default. A call that sent nothing
         * (every key blocked) and limits that never wait are not counted as repeats.
         */
        OptionalLong usageLimitWait(AssistantMessage failed, UsageLimitReason reason, OptionalLong hint) {
            if (UsageLimitPolicy.sentNothing(failed) || reason.neverWaits()) {
                return hint;
            }
            int repeats = usageLimits.merge(failed.provider() + "/" + failed.credential() + "/" + failed.model(), 1,
                    Integer::sum) - 1;
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

        void spend(AssistantMessage failed) {
            if (failed.credential() != null && !UsageLimitPolicy.sentNothing(failed)) {
                spent.computeIfAbsent(failed.provider(), p -> new HashSet<>()).add(failed.credential());
            }
        }
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
                if (pending == this) {
                    pending = null;
                }
                boolean cancelled = wake == RetryTimer.Wake.CANCELLED || (chain != null && chain.cancelRequested);
                if (!cancelled) {
                    return new AgentEndDecision.Resume.Due();
                }
                return new AgentEndDecision.Resume.Cancelled(cancelChain());
            }
        }

        private List<SessionEvent> cancelChain() {
            Chain ended = chain;
            chain = null;
            if (ended == null) {
                return List.of();
            }
            RetryEndReason reason = userAbort ? RetryEndReason.ABORTED : RetryEndReason.CANCELLED;
            int made = ended.attempt - 1;
            return List.of(new AutoRetryEnd(false, made, AutoRetryEnd.CANCELLED_MESSAGE, reason),
                    new RetryChainEnd(turnId, ended.attempts, reason, AutoRetryEnd.CANCELLED_MESSAGE, ended.startedAt,
                            clock.millis()));
        }
    }

    /** Builds an engine; settings, clock, random source and timer are required. */
    public static final class Builder {
        private Supplier<RetrySettings> settings;
        private Clock clock;
        private RandomGenerator random;
        private RetryTimer timer;
        private ErrorClassifier classifier;
        private RetryHints hints;
        private UsageLimitPolicy usageLimits;
        private ModelFallback fallback;
        private OverflowHandler overflow;

        /** Read at every decision. */
        public Builder settings(Supplier<RetrySettings> s) {
            this.settings = s;
            return this;
        }

        public Builder clock(Clock c) {
            this.clock = c;
            return this;
        }

        public Builder random(RandomGenerator r) {
            this.random = r;
            return this;
        }

        public Builder timer(RetryTimer t) {
            this.timer = t;
            return this;
        }

        public Builder classifier(ErrorClassifier c) {
            this.classifier = c;
            return this;
        }

        public Builder usageLimits(UsageLimitPolicy u) {
            this.usageLimits = u;
            return this;
        }

        public Builder fallback(ModelFallback f) {
            this.fallback = f;
            return this;
        }

        public Builder overflow(OverflowHandler o) {
            this.overflow = o;
            return this;
        }

        public RetryEngine build() {
            return new RetryEngine(this);
        }
    }
}
