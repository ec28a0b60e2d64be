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
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rebound simulate}: the fault simulator as a standalone server, in the foreground until Ctrl+C. */
@Command(
        name = "simulate",
        mixinStandardHelpOptions = true,
        versionProvider = AppVersion.class,
        sortOptions = false,
        description = {
            "Run the fault simulator: a fake OpenAI-compatible server on 127.0.0.1 that streams canned "
                    + "replies and fails on cue (see docs/simulator.md). Runs until Ctrl+C."
        })
final class SimulateCommand implements Callable<Integer> {

    @Option(
            names = "--port",
            paramLabel = "N",
            defaultValue = "0",
            description = "Port on 127.0.0.1 (default: 0, any free port).")
    int port;

    @Option(
            names = "--scenario",
            paramLabel = "FILE",
            description = "A JSON scenario: the fault steps the requests consume, in order.")
    Path scenario;

    @Option(
            names = "--tokens-per-second",
            paramLabel = "R",
            defaultValue = "120",
            description = "Streaming rate (default: ${DEFAULT-VALUE}; 0 = as fast as possible).")
    double tokensPerSecond;

    @Option(names = "--seed", paramLabel = "S", description = "Makes replies repeatable (default: random).")
    Long seed;

    @Override
    public Integer call() {
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
