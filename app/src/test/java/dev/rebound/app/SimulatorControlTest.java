package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.simulator.BuiltInSimulator;
import dev.rebound.simulator.Fault;
import dev.rebound.simulator.FaultStep;
import dev.rebound.ui.model.SimulatedFailure;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The desktop menu's failures as the built-in simulator's fault steps, on a real simulator's queue. */
class SimulatorControlTest {
    private final BuiltInSimulator simulator = new BuiltInSimulator(1);
    private final SimulatorControl control = new SimulatorControl(simulator);

    @Test
    void everyMenuFailureQueuesTheMatchingFaultForAnyKey() {
        for (SimulatedFailure failure : SimulatedFailure.values()) {
            control.queue(failure);
        }

        assertThat(simulator.faults().queued())
                .allMatch(step -> step.credential() == null)
                .extracting(step -> step.fault().name())
                .containsExactly(
                        "overload",
                        "overload",
                        "overload",
                        "rate-limit",
                        "usage-limit",
                        "insufficient-quota",
                        "reset-before-headers",
                        "cut-after",
                        "stall",
                        "refusal",
                        "context-overflow",
                        "unauthorized");
        assertThat(control.queued()).isEqualTo(SimulatedFailure.values().length + 2);
    }

    @Test
    void theRateLimitAsksForFiveSecondsAndTheCutLeavesVisibleText() {
        control.queue(SimulatedFailure.RATE_LIMIT);
        control.queue(SimulatedFailure.CUT_REPLY);

        assertThat(simulator.faults().queued())
                .extracting(FaultStep::fault)
                .containsExactly(new Fault.RateLimit(5L, null), new Fault.CutAfter(200));
    }

    @Test
    void clearEmptiesTheQueueAndTheSpeedIsTheSimulatorsOwn() {
        Arrays.stream(SimulatedFailure.values()).forEach(control::queue);
        control.clear();
        control.tokensPerSecond(500);

        assertThat(control.queued()).isZero();
        assertThat(simulator.faults().queued()).isEmpty();
        assertThat(simulator.tokensPerSecond()).isEqualTo(500);
        assertThat(control.tokensPerSecond()).isEqualTo(500);
    }
}
