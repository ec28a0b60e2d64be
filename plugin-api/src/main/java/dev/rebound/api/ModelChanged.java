package dev.rebound.api;

/**
 * The session's current model changed.
 *
 * @param model the new model
 * @param reason {@code user} for a manual choice; later also {@code fallback} and {@code revert}
 */
public record ModelChanged(ModelRef model, String reason) implements SessionEvent {
    @Override
    public String type() {
        return "model_changed";
    }
}
