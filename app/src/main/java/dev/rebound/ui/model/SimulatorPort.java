package dev.rebound.ui.model;

/**
 * What the desktop may do to the built-in simulator: queue named failures for the next requests, clear them, count
 * them, and set the reply speed. The host implements it over its simulator; the UI never sees the simulator's
 * wire-level fault model. Calls are cheap (in memory) and thread-safe.
 */
public interface SimulatorPort {

    /** Queues {@code failure} after what is already queued. */
    void queue(SimulatedFailure failure);

    /** Drops every queued failure. */
    void clear();

    /** How many requests will still get a scripted answer (a failure queued ×3 counts 3). */
    int queued();

    /** The reply speed, tokens per second; 0 sends everything at once. */
    double tokensPerSecond();

    /** Sets the reply speed from the next chunk on. */
    void tokensPerSecond(double rate);
}
