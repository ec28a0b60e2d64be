package dev.rebound.simulator;

import java.util.List;

/**
 * The queue of scripted faults of a simulator: what the RPC {@code simulate} command, a scenario file and the desktop's
 * "Simulate failures" menu fill, and what each request to the simulator consumes. Thread-safe.
 *
 * <p>A request takes the first queued step that {@linkplain FaultStep#appliesTo applies to} its key; steps kept for
 * other keys stay queued in order. With nothing queued for it, a request gets a normal reply ({@link Fault.Ok}).
 */
public interface FaultScript {

    /** Adds steps after those already queued. */
    void append(List<FaultStep> steps);

    /** Drops what is queued and queues these instead. */
    void replace(List<FaultStep> steps);

    /** Drops every queued step. */
    default void clear() {
        replace(List.of());
    }

    /** The steps not consumed yet, in order. */
    List<FaultStep> queued();

    /**
     * Consumes the step for one request.
     *
     * @param key the request's API key, or null when it sent none
     * @return the step consumed, or an {@link Fault.Ok} step when none is queued for that key
     */
    FaultStep take(String key);
}
