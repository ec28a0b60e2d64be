package dev.rebound.app;

import dev.rebound.simulator.BuiltInSimulator;
import dev.rebound.simulator.Fault;
import dev.rebound.simulator.FaultStep;
import dev.rebound.ui.model.SimulatedFailure;
import dev.rebound.ui.model.SimulatorPort;
import java.util.Collections;
import java.util.List;

/**
 * The desktop's "Simulate failures" menu on the built-in simulator: each named failure becomes the fault steps the
 * simulator answers the next request(s) with. Steps apply to whichever key the request uses, so a usage limit hits the
 * key in use and Rebound switches to the other one.
 */
final class SimulatorControl implements SimulatorPort {
    /** Characters of a cut reply: enough for its title and first lines, so the cut is visible. */
    static final int CUT_AFTER_CHARS = 200;
    /** The {@code retry-after} of a simulated rate limit. */
    static final long RATE_LIMIT_SECONDS = 5;

    private final BuiltInSimulator simulator;

    SimulatorControl(BuiltInSimulator simulator) {
        this.simulator = simulator;
    }

    @Override
    public void queue(SimulatedFailure failure) {
        simulator.faults().append(steps(failure));
    }

    @Override
    public void clear() {
        simulator.faults().clear();
    }

    @Override
    public int queued() {
        return simulator.faults().queued().size();
    }

    @Override
    public double tokensPerSecond() {
        return simulator.tokensPerSecond();
    }

    @Override
    public void tokensPerSecond(double rate) {
        simulator.tokensPerSecond(rate);
    }

    /** The simulator's steps for a menu item. */
    static List<FaultStep> steps(SimulatedFailure failure) {
        return switch (failure) {
            case OVERLOAD_3 -> Collections.nCopies(3, FaultStep.any(new Fault.Overload()));
            case RATE_LIMIT -> List.of(FaultStep.any(new Fault.RateLimit(RATE_LIMIT_SECONDS, null)));
            case USAGE_LIMIT -> List.of(FaultStep.any(new Fault.UsageLimit(300)));
            case INSUFFICIENT_QUOTA -> List.of(FaultStep.any(new Fault.InsufficientQuota()));
            case CONNECTION_RESET -> List.of(FaultStep.any(new Fault.ResetBeforeHeaders()));
            case CUT_REPLY -> List.of(FaultStep.any(new Fault.CutAfter(CUT_AFTER_CHARS)));
            case STALL -> List.of(FaultStep.any(new Fault.Stall(CUT_AFTER_CHARS)));
            case REFUSAL -> List.of(FaultStep.any(new Fault.Refusal()));
            case CONTEXT_OVERFLOW -> List.of(FaultStep.any(new Fault.ContextOverflow()));
            case UNAUTHORIZED -> List.of(FaultStep.any(new Fault.Unauthorized()));
        };
    }
}
