package dev.rebound.session;

import dev.rebound.transcript.ModelRef;

/**
 * The models of a session: the primary (the user's choice) and the one in use now, which differs while a fallback is
 * active. Shared by the session and the retry engine's fallback policy. Thread-safe.
 */
public final class SessionModel {
    /**
     * Both models, replaced together so that a reader never sees one changed without the other.
     *
     * @param primary the user's choice
     * @param current the model the next call goes to
     */
    public record Models(ModelRef primary, ModelRef current) {
        /** Whether a fallback model is in use. */
        public boolean onFallback() {
            return current != null && !current.equals(primary);
        }
    }

    private volatile Models models;

    public SessionModel(ModelRef initial) {
        this.models = new Models(initial, initial);
    }

    /** The model the next call goes to, or null when none is configured. */
    public ModelRef current() {
        return models.current();
    }

    /** The user's choice. */
    public ModelRef primary() {
        return models.primary();
    }

    /** Whether a fallback model is in use. */
    public boolean onFallback() {
        return models.onFallback();
    }

    /** Both models as they are now, read at once. */
    public Models snapshot() {
        return models;
    }

    /** The user chose a model: it becomes both primary and current. */
    public synchronized void choose(ModelRef model) {
        models = new Models(model, model);
    }

    /** The fallback policy moves the session to another model (or back to the primary). */
    public synchronized void use(ModelRef model) {
        models = new Models(models.primary(), model);
    }
}
