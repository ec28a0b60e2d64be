package dev.rebound.simulator;

import java.util.List;

/**
 * A scenario that was refused whole. The message lists every problem with where it is ({@code steps[2].chars: must be
 * a whole number from 0 to 1000000}).
 */
public final class ScenarioException extends Exception {
    private final List<String> problems;

    ScenarioException(List<String> problems) {
        super("The scenario was refused, nothing was queued: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem, with its location. */
    public List<String> problems() {
        return problems;
    }
}
