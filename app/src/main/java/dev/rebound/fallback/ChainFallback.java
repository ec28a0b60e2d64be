package dev.rebound.fallback;

import dev.rebound.event.ErrorKind;
import dev.rebound.event.ModelChanged;
import dev.rebound.event.RetryFallbackApplied;
import dev.rebound.event.RetryFallbackReverted;
import dev.rebound.event.RetryFallbackSucceeded;
import dev.rebound.event.SessionEvent;
import dev.rebound.retry.Classification;
import dev.rebound.retry.ModelFallback;
import dev.rebound.retry.UsageLimitReason;
import dev.rebound.retry.WaitingUsageLimits;
import dev.rebound.session.FallbackStatus;
import dev.rebound.session.SessionModel;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ModelRef;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Model fallback of one session (§6 of the retry policy). A failed model is suppressed for a cooldown (the provider's
 * hint, else the usage-limit reason's default, else 5 min) and the session moves to the next model of its chain after
 * the failed one that is not cooling down and whose provider has a usable key. A refusal suppresses nothing; its fallback is pinned for
 * {@code retry.refusalPinMs}. Under {@code cooldown-expiry} the session returns to its primary before a prompt or a
 * scheduled retry once the primary's cooldown and the pin are over; under {@code never} it stays until the user picks
 * a model. Called by the retry engine, which serialises the calls; {@link #status()} may be read from any thread.
 */
public final class ChainFallback implements ModelFallback {
    /** Cooldown of a failed model when neither a hint nor a usage-limit reason says otherwise. */
    static final long DEFAULT_COOLDOWN_MS = 300_000;

    private final Supplier<Settings> settings;
    private final SessionModel model;
    private final ModelCooldowns cooldowns;
    private final Clock clock;
    private final RandomGenerator random;
    private final String role;
    private final Predicate<ModelRef> usable;

    /** Models that failed (or refused) in the current turn; never reverted to before the next prompt. */
    private final java.util.Set<ModelRef> failedThisTurn = new java.util.HashSet<>();
    /** Written under the retry engine's lock; volatile so that {@link #status()} can be read without it. */
    private volatile String activeKey;

    private boolean awaitingSuccess;
    /** Written under the retry engine's lock; volatile so that {@link #status()} can be read without it. */
    private volatile long pinnedUntil;

    /**
     * @param role the session's role; chats use {@link FallbackChains#DEFAULT}
     * @param usable whether a model can be called now (false when every API key of its provider is blocked)
     */
    public ChainFallback(
            Supplier<Settings> settings,
            SessionModel model,
            ModelCooldowns cooldowns,
            Clock clock,
            RandomGenerator random,
            String role,
            Predicate<ModelRef> usable) {
        this.settings = settings;
        this.model = model;
        this.cooldowns = cooldowns;
        this.clock = clock;
        this.random = random;
        this.role = role;
        this.usable = usable;
    }

    @Override
    public Optional<List<SessionEvent>> apply(
            AssistantMessage failed, Classification classification, OptionalLong hintMs) {
        ModelRef primary = model.primary();
        if (primary == null) {
            return Optional.empty();
        }
        Settings now = settings.get();
        Optional<FallbackChains.Resolution> chain = FallbackChains.resolve(now, primary, role);
        if (chain.isEmpty()) {
            return Optional.empty();
        }
        long at = clock.millis();
        ModelRef failedModel = failed.modelRef();
        failedThisTurn.add(failedModel);
        boolean refusal = classification.kind() == ErrorKind.REFUSAL;
        // A refusal or a missing entitlement says nothing about the model's health: it cools nothing down for the
        // other chats (a chat that needs no long context still works on it).
        if (!refusal && classification.usageLimitReason() != UsageLimitReason.ENTITLEMENT) {
            cooldowns.suppress(
                    failedModel, at + cooldown(classification, hintMs), String.valueOf(classification.kind()));
        }
        // Forward only: the entries after the one that failed. A model that already failed or refused in this turn
        // is never picked again (no ping-pong); going back to the primary is the revert policy's job.
        List<ModelRef> models = chain.get().models();
        int failedAt = models.indexOf(failedModel);
        Optional<ModelRef> next = models.subList(failedAt + 1, models.size()).stream()
                .filter(m -> !cooldowns.isSuppressed(m) && usable.test(m))
                .findFirst();
        if (next.isEmpty()) {
            return Optional.empty();
        }
        ModelRef from = model.current();
        ModelRef to = next.get();
        // Role and pin first: a status read in between sees no fallback yet, never one without its role.
        activeKey = chain.get().key();
        awaitingSuccess = true;
        if (refusal) {
            pinnedUntil = Math.max(pinnedUntil, at + now.retry().refusalPinMs());
        }
        model.use(to);
        return Optional.of(List.of(
                new RetryFallbackApplied(from.selector(), to.selector(), activeKey),
                new ModelChanged(from, to, ModelChanged.FALLBACK)));
    }

    private long cooldown(Classification classification, OptionalLong hintMs) {
        if (hintMs.isPresent()) {
            return hintMs.getAsLong();
        }
        UsageLimitReason reason = classification.usageLimitReason();
        if (reason != null && !reason.neverWaits()) {
            return WaitingUsageLimits.defaultWait(reason, random);
        }
        return DEFAULT_COOLDOWN_MS;
    }

    @Override
    public List<SessionEvent> onSuccess() {
        if (!awaitingSuccess || !model.onFallback()) {
            return List.of();
        }
        awaitingSuccess = false;
        return List.of(new RetryFallbackSucceeded(model.current().selector(), activeKey));
    }

    @Override
    public List<SessionEvent> revertIfDue(boolean beforePrompt) {
        if (beforePrompt) {
            failedThisTurn.clear();
        }
        if (!model.onFallback() || settings.get().retry().fallbackRevertPolicy() == RetrySettings.RevertPolicy.NEVER) {
            return List.of();
        }
        ModelRef primary = model.primary();
        if (clock.millis() < pinnedUntil
                || cooldowns.isSuppressed(primary)
                || !usable.test(primary)
                || failedThisTurn.contains(primary)) {
            return List.of();
        }
        ModelRef from = model.current();
        model.use(primary);
        clear();
        return List.of(
                new RetryFallbackReverted(from.selector(), primary.selector()),
                new ModelChanged(from, primary, ModelChanged.REVERT));
    }

    @Override
    public void modelChosen() {
        clear();
    }

    /**
     * The active fallback, from the session's models and this policy's volatile fields, without the engine's lock: a
     * status read while a decision is being made shows the state before or after it.
     */
    @Override
    public Optional<FallbackStatus> status() {
        SessionModel.Models models = model.snapshot();
        if (!models.onFallback()) {
            return Optional.empty();
        }
        ModelRef primary = models.primary();
        ModelRef current = models.current();
        Long revertAt = null;
        if (settings.get().retry().fallbackRevertPolicy() != RetrySettings.RevertPolicy.NEVER) {
            revertAt = Math.max(pinnedUntil, cooldowns.until(primary).orElse(clock.millis()));
        }
        return Optional.of(new FallbackStatus(primary.selector(), current.selector(), activeKey, revertAt));
    }

    private void clear() {
        failedThisTurn.clear();
        activeKey = null;
        awaitingSuccess = false;
        pinnedUntil = 0;
    }
}
