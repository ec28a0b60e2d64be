package dev.rebound.app;

import dev.rebound.simulator.FaultQueue;
import dev.rebound.simulator.FaultStep;
import dev.rebound.simulator.ScenarioException;
import dev.rebound.simulator.Scenarios;
import dev.rebound.simulator.SimulatorServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;

/** {@code rebound simulate}: the fault simulator as a standalone server, in the foreground until Ctrl+C. */
final class SimulateCommand {
    private final int port;
    private final Path scenario;
    private final double tokensPerSecond;
    private final Long seed;

    /** The options of {@code rebound simulate} ({@link CommandLineModel#simulate()}); a null seed means random. */
    SimulateCommand(int port, Path scenario, double tokensPerSecond, Long seed) {
        this.port = port;
        this.scenario = scenario;
        this.tokensPerSecond = tokensPerSecond;
        this.seed = seed;
    }

    /** Runs the simulator until the process is stopped; the exit code. */
    int run() {
        PrintWriter err = Console.errWriter();
        List<FaultStep> steps = List.of();
        if (scenario != null) {
            try {
                steps = Scenarios.read(scenario);
            } catch (ScenarioException e) {
                err.println("rebound simulate: " + scenario + ": " + e.getMessage());
                return Launch.EXIT_USAGE;
            }
        }
        SimulatorServer.Config config;
        try {
            config = new SimulatorServer.Config(
                    port,
                    tokensPerSecond,
                    seed != null ? seed : ThreadLocalRandom.current().nextLong());
        } catch (IllegalArgumentException e) {
            err.println("rebound simulate: " + e.getMessage());
            return Launch.EXIT_USAGE;
        }
        SimulatorServer server;
        try {
            server = SimulatorServer.start(config, new FaultQueue(steps));
        } catch (IOException e) {
            err.println("rebound simulate: cannot listen on 127.0.0.1:" + port + " (" + e.getMessage() + "). Choose "
                    + "another --port, or --port 0 for any free one.");
            return Launch.EXIT_USAGE;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            server.close();
            stopped.countDown();
        }));
        PrintWriter out = Console.helpWriter();
        out.println("Rebound simulator listening on " + server.baseUrl() + " (model " + SimulatorServer.MODEL_ID + ", "
                + String.format(Locale.ROOT, "%.0f", tokensPerSecond) + " tokens/s, " + steps.size()
                + " scripted step(s)). Press Ctrl+C to stop.");
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
