package dev.rebound.session;

import dev.rebound.transcript.ModelRef;

/**
 * The models of a session: the primary (the user's choice) and the one in use now, which differs while a fallback is
 * active. Shared by the session and the retry engine's fallback policy. Thread-safe.
 */
public final class SessionModel {
    private volatile ModelRef primary;
    private volatile ModelRef current;

    public SessionModel(ModelRef initial) {
        this.primary = initial;
        this.current = initial;
    }

    /** The model the next call goes to, or null when none is configured. */
    public ModelRef current() {
        return current;
    }

    /** The user's choice. */
    public ModelRef primary() {
        return primary;
    }

    /** Whether a fallback model is in use. */
    public boolean onFallback() {
        ModelRef c = current;
        return c != null && !c.equals(primary);
    }

    /** The user chose a model: it becomes both primary and current. */
    public synchronized void choose(ModelRef model) {
        primary = model;
        current = model;
    }

    /** The fallback policy moves the session to another model (or back to the primary). */
    public synchronized void use(ModelRef model) {
        current = model;
    }
}
