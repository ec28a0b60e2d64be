package dev.rebound.ui.model;

import java.time.Duration;

/**
 * Calls an action repeatedly on the FX thread, for live countdowns. Production uses a JavaFX timeline; tests tick by
 * hand so countdowns are checked exactly.
 */
@FunctionalInterface
public interface Ticker {

    /** Starts calling {@code action} every {@code period}; close the result to stop. */
    AutoCloseable every(Duration period, Runnable action);
}
