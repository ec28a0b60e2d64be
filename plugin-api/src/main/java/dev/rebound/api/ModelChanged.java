package dev.rebound.api;

/**
 * The session's current model changed.
 *
 * @param session the chat
 * @param turnId the turn whose fallback or revert changed it; null for the user's choice, which belongs to no turn
 *     (even when made while one runs)
 * @param from the previous model, or null when there was none
 * @param model the new model
 * @param reason who or what changed it
 */
public record ModelChanged(SessionRef session, String turnId, ModelRef from, ModelRef model, ModelChangeReason reason)
        implements SessionEvent {
    @Override
    public String type() {
        return "model_changed";
    }
}
