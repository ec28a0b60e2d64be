package dev.rebound.simulator;

import java.util.Objects;

/**
 * One step of a scenario: a fault, consumed by one request.
 *
 * @param fault what the request gets
 * @param credential the API key (the {@code Authorization: Bearer} value) the step is kept for, or null for any
 *     request. Simulator keys are fake; real keys never belong in a scenario.
 */
public record FaultStep(Fault fault, String credential) {
    public FaultStep {
        Objects.requireNonNull(fault, "fault");
        if (credential != null && credential.isBlank()) {
            throw new IllegalArgumentException("a step's credential must not be blank");
        }
    }

    /** A step for any request. */
    public static FaultStep any(Fault fault) {
        return new FaultStep(fault, null);
    }

    /** Whether a request made with that key (null when it sent none) may consume this step. */
    public boolean appliesTo(String key) {
        return credential == null || credential.equals(key);
    }
}
