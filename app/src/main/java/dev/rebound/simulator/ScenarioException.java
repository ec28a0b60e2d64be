package dev.rebound.simulator;

import java.util.List;

/**
 * A scenario that was refused whole. The message lists every problem with where it is ({@code steps[2].chars: must be
 * a whole number from 0 to 1000000}), or says why its file could not be read ({@code no such file},
 * {@code not valid JSON at line 2, column 15: …}), without naming the file.
 */
public final class ScenarioException extends Exception {
    private final List<String> problems;

    ScenarioException(List<String> problems) {
        this("The scenario was refused, nothing was queued: " + String.join("; ", problems), problems);
    }

    private ScenarioException(String message, List<String> problems) {
        super(message);
        this.problems = List.copyOf(problems);
    }

    /** A scenario file that could not be read as JSON: the message is the problem alone ({@code no such file}). */
    static ScenarioException ofFile(String problem) {
        return new ScenarioException(problem, List.of(problem));
    }

    /** Each problem, with its location. */
    public List<String> problems() {
        return problems;
    }
}
