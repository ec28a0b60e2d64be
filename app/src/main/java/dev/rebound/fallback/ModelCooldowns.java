package dev.rebound.fallback;

import dev.rebound.api.ModelRef;
import dev.rebound.state.ExpiryStore;
import java.util.OptionalLong;

/**
 * Models suppressed after a failure (§6 of the retry policy), shared by every session of the app and kept under
 * {@code state/} so a restart does not send the next prompt straight back to an overloaded model.
 */
public final class ModelCooldowns {
    private final ExpiryStore store;

    public ModelCooldowns(ExpiryStore store) {
        this.store = store;
    }

    /** Suppresses a model until {@code untilEpochMs}. */
    public void suppress(ModelRef model, long untilEpochMs, String reason) {
        store.put(model.selector(), untilEpochMs, reason);
    }

    /** When the model's cooldown ends, if it is cooling down now. */
    public OptionalLong until(ModelRef model) {
        return store.get(model.selector()).map(e -> OptionalLong.of(e.until())).orElse(OptionalLong.empty());
    }

    public boolean isSuppressed(ModelRef model) {
        return until(model).isPresent();
    }
}
