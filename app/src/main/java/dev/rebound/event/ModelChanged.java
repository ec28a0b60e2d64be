package dev.rebound.event;

import dev.rebound.transcript.ModelRef;

/**
 * The session's current model changed.
 *
 * @param from the previous model, or null when there was none
 * @param model the new model
 * @param reason {@link #USER} for a manual choice, {@link #FALLBACK} when a fallback was applied, {@link #REVERT} when
 *     the session went back to its primary model
 */
public record ModelChanged(ModelRef from, ModelRef model, String reason) implements SessionEvent {
    public static final String USER = "user";
    public static final String FALLBACK = "fallback";
    public static final String REVERT = "revert";

    @Override
    public String type() {
        return "model_changed";
    }
}
