package dev.rebound.simulator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The in-memory {@link FaultScript} of one simulator: steps in order, each taken by the first request whose key it
 * applies to. Thread-safe (every method holds the queue's lock).
 */
public final class FaultQueue implements FaultScript {
    private static final FaultStep OK = FaultStep.any(new Fault.Ok());

    private final List<FaultStep> steps = new ArrayList<>();

    /** An empty queue: every request gets a normal reply until steps are added. */
    public FaultQueue() {}

    /** A queue holding {@code initial}. */
    public FaultQueue(List<FaultStep> initial) {
        steps.addAll(initial);
    }

    @Override
    public synchronized void append(List<FaultStep> more) {
        steps.addAll(List.copyOf(more));
    }

    @Override
    public synchronized void replace(List<FaultStep> replacement) {
        List<FaultStep> copy = List.copyOf(replacement);
        steps.clear();
        steps.addAll(copy);
    }

    @Override
    public synchronized List<FaultStep> queued() {
        return List.copyOf(steps);
    }

    @Override
    public synchronized FaultStep take(String key) {
        Iterator<FaultStep> it = steps.iterator();
        while (it.hasNext()) {
            FaultStep step = it.next();
            if (step.appliesTo(key)) {
                it.remove();
                return step;
            }
        }
        return OK;
    }
}
