package dev.rebound.fallback;

import dev.rebound.api.ModelRef;
import dev.rebound.state.ExpiryStore;
import java.util.OptionalLong;

/**
 * Models suppressed after a failure (§6 of the retry policy), shared by every session of the app and by other Rebound
 * processes on the same config directory, and kept under {@code state/}: a session that is on a fallback does not
 * return to a model another session found overloaded, and the cooldown outlives a restart.
 */
public final class ModelCooldowns {
    private final ExpiryStore store;

    public ModelCooldowns(ExpiryStore store) {
        this.store = store;
    }

    /** Suppresses a model until {@code untilEpochMs}, or keeps its cooldown when that already ends later. */
    public void suppress(ModelRef model, long untilEpochMs, String reason) {
        try {
            store.extend(model.selector(), untilEpochMs, reason);
        } catch (IllegalArgumentException e) {
            org.slf4j.LoggerFactory.getLogger(ModelCooldowns.class)
                    .warn("Could not record the cooldown of {}: {}", model, e.getMessage());
        }
    }

    /** When the model's cooldown ends, if it is cooling down now. */
    public OptionalLong until(ModelRef model) {
        return store.get(model.selector()).map(e -> OptionalLong.of(e.until())).orElse(OptionalLong.empty());
    }

    public boolean isSuppressed(ModelRef model) {
        return until(model).isPresent();
    }
}
