package dev.rebound.simulator;

import java.util.List;

/**
 * A simulator server on loopback with its fault queue, and a client for it: what each wire-format test starts once and
 * scripts before every request.
 *
 * @param faults the server's fault queue
 * @param server the running server
 * @param client a client of it
 */
record ScriptedSimulator(FaultQueue faults, SimulatorServer server, SimulatorClient client) implements AutoCloseable {

    /** Starts a server (seed 7, no pacing) and its client. */
    static ScriptedSimulator start() throws Exception {
        FaultQueue faults = new FaultQueue();
        SimulatorServer server = SimulatorServer.start(
                new SimulatorServer.Config(0, 0, 7), faults, SimulatorClient.CLOCK, Ticker.system());
        return new ScriptedSimulator(faults, server, new SimulatorClient(server.port()));
    }

    /** Scripts {@code fault} for the next request, then posts {@code body} to {@code path} with these header pairs. */
    SimulatorClient.Reply post(Fault fault, String path, String body, String... headers) throws Exception {
        faults.replace(List.of(FaultStep.any(fault)));
        return client.post(path, body, headers);
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }
}
