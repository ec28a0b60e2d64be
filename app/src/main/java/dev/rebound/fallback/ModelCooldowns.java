package dev.rebound.fallback;

import dev.rebound.expiry.Expiries;
import dev.rebound.expiry.ExpiryStore;
import dev.rebound.transcript.ModelRef;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * Models suppressed after a failure (§6 of the retry policy), shared by every session of the app and by other Rebound
 * processes on the same config directory, and kept under {@code state/}: a session that is on a fallback does not
 * return to a model another session found overloaded, and the cooldown outlives a restart. The cooldowns of the
 * built-in simulator's model are kept in memory only: a scripted overload must not outlive the run.
 */
public final class ModelCooldowns {
    private final ExpiryStore store;
    private final Expiries memory;
    private final Predicate<ModelRef> keptInMemory;

    /** Cooldowns of every model kept in {@code store}. */
    public ModelCooldowns(ExpiryStore store) {
        this(store, store, m -> false);
    }

    /**
     * @param memory where the cooldowns of the models {@code keptInMemory} accepts go instead of {@code store}
     */
    public ModelCooldowns(ExpiryStore store, Expiries memory, Predicate<ModelRef> keptInMemory) {
        this.store = store;
        this.memory = memory;
        this.keptInMemory = keptInMemory;
    }

    /** Suppresses a model until {@code untilEpochMs}, or keeps its cooldown when that already ends later. */
    public void suppress(ModelRef model, long untilEpochMs, String reason) {
        try {
            storeOf(model).extend(model.selector(), untilEpochMs, reason);
        } catch (IllegalArgumentException e) {
            org.slf4j.LoggerFactory.getLogger(ModelCooldowns.class)
                    .warn("Could not record the cooldown of {}: {}", model, e.getMessage());
        }
    }

    /** When the model's cooldown ends, if it is cooling down now. */
    public OptionalLong until(ModelRef model) {
        return storeOf(model)
                .get(model.selector())
                .map(e -> OptionalLong.of(e.until()))
                .orElse(OptionalLong.empty());
    }

    public boolean isSuppressed(ModelRef model) {
        return until(model).isPresent();
    }

    private Expiries storeOf(ModelRef model) {
        return keptInMemory.test(model) ? memory : store;
    }
}
