package dev.rebound.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.simulator.BuiltInSimulator;
import dev.rebound.simulator.FaultStep;
import dev.rebound.simulator.ScenarioException;
import dev.rebound.simulator.Scenarios;
import dev.rebound.simulator.SimulatorServer;
import java.util.List;
import java.util.Locale;

/**
 * The RPC commands that script the built-in simulator: {@code simulate} queues fault steps (and may set the streaming
 * rate), {@code get_simulation} shows what is queued, {@code clear_simulation} drops it. A malformed command is refused
 * whole with its reasons ({@link IllegalArgumentException}, which the server turns into an error response).
 */
final class SimulatorCommands {
    private final BuiltInSimulator simulator;
    private final ObjectMapper mapper;

    SimulatorCommands(BuiltInSimulator simulator, ObjectMapper mapper) {
        this.simulator = simulator;
        this.mapper = mapper;
    }

    /** {@code {"type":"simulate","steps":[...],"replace":false,"tokensPerSecond":R}}. */
    ObjectNode simulate(JsonNode command) {
        JsonNode stepsNode = command.get("steps");
        JsonNode replace = command.get("replace");
        JsonNode rate = command.get("tokensPerSecond");
        if (replace != null && !replace.isBoolean()) {
            throw new IllegalArgumentException("\"replace\" must be true or false");
        }
        if (rate != null && !rate.isNumber()) {
            throw new IllegalArgumentException("\"tokensPerSecond\" must be a number from 0 (as fast as possible) to "
                    + String.format(Locale.ROOT, "%.0f", SimulatorServer.MAX_TOKENS_PER_SECOND));
        }
        if (rate != null) {
            SimulatorServer.checkRate(rate.doubleValue());
        }
        if (stepsNode == null && rate == null) {
            throw new IllegalArgumentException("simulate needs \"steps\" (e.g. [{\"fault\":\"overload\",\"times\":3}])"
                    + " or \"tokensPerSecond\"");
        }
        List<FaultStep> steps = List.of();
        if (stepsNode != null) {
            try {
                steps = Scenarios.parse(mapper.createObjectNode().set("steps", stepsNode));
            } catch (ScenarioException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        if (rate != null) {
            simulator.tokensPerSecond(rate.doubleValue());
        }
        if (replace != null && replace.booleanValue()) {
            simulator.faults().replace(steps);
        } else if (!steps.isEmpty()) {
            simulator.faults().append(steps);
        }
        return state();
    }

    /** What is queued, the rate, and the server's URL once it runs. */
    ObjectNode state() {
        ObjectNode data = mapper.createObjectNode();
        data.set("queued", Scenarios.toJson(simulator.faults().queued()));
        data.put("tokensPerSecond", simulator.tokensPerSecond());
        String url = simulator.runningUrl();
        if (url == null) {
            data.putNull("baseUrl");
        } else {
            data.put("baseUrl", url);
        }
        return data;
    }

    /** Empties the queue and lifts the blocks and cooldowns the script caused. */
    ObjectNode clear() {
        simulator.clearSimulation();
        return state();
    }
}
