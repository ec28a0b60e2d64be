package dev.rebound.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The simulator Rebound runs in its own process: the offline default provider when {@code settings.json} configures
 * none, and the server behind any provider with {@code api: simulator} and no {@code baseUrl}. Its server starts on
 * the first call of {@link #baseUrl()} (so a user with real providers never opens a port) and stops with
 * {@link #close()}. Its {@link #faults() fault script} exists from the start, so failures can be scripted before the
 * first request. Thread-safe.
 */
public final class BuiltInSimulator implements AutoCloseable {
    /** The provider key of the built-in provider. */
    public static final String PROVIDER_KEY = "simulator";
    /** What to call its model wherever a model name shows. */
    public static final String DISPLAY_NAME = "Rebound Simulator (offline)";
    /** Its two fake, non-secret credentials, so that a scripted usage limit on the first switches to the second. */
    public static final List<FakeCredential> CREDENTIALS = List.of(
            new FakeCredential("primary", "sim-key-primary"), new FakeCredential("secondary", "sim-key-secondary"));

    /**
     * A fake credential of the built-in provider: its label and the key the simulator sees (and scenario steps can be
     * kept for).
     */
    public record FakeCredential(String label, String key) {}

    private final FaultScript faults = new FaultQueue();
    private final List<Runnable> clearActions = new CopyOnWriteArrayList<>();
    private final long seed;
    private double tokensPerSecond = SimulatorServer.Config.DEFAULT_TOKENS_PER_SECOND;
    private SimulatorServer server;
    private boolean closed;

    /** A simulator whose replies vary from run to run. */
    public BuiltInSimulator() {
        this(ThreadLocalRandom.current().nextLong());
    }

    /** A simulator with deterministic replies. */
    public BuiltInSimulator(long seed) {
        this.seed = seed;
    }

    /** The script of the built-in server (the RPC {@code simulate} command and the desktop menu fill it). */
    public FaultScript faults() {
        return faults;
    }

    /**
     * The server's base URL, starting it on first use.
     *
     * @throws UncheckedIOException when no loopback port can be bound
     * @throws IllegalStateException after {@link #close()}
     */
    public synchronized String baseUrl() {
        if (closed) {
            throw new IllegalStateException("the built-in simulator has stopped");
        }
        if (server == null) {
            try {
                server = SimulatorServer.start(new SimulatorServer.Config(0, tokensPerSecond, seed), faults);
            } catch (IOException e) {
                throw new UncheckedIOException("the built-in simulator could not open a port on 127.0.0.1", e);
            }
        }
        return server.baseUrl();
    }

    /**
     * Runs {@code action} on every {@link #clearSimulation()}: how the app lifts what a script caused outside the
     * simulator (the usage-limit blocks of the fake keys, the model's cooldown).
     */
    public void onClear(Runnable action) {
        clearActions.add(action);
    }

    /**
     * Empties the fault script and lifts what it caused: the actions registered with {@link #onClear} run, so the next
     * request is answered at once (RPC {@code clear_simulation}, the desktop menu's "clear").
     */
    public void clearSimulation() {
        faults.clear();
        clearActions.forEach(Runnable::run);
    }

    /** The base URL if the server runs, else null. */
    public synchronized String runningUrl() {
        return server == null ? null : server.baseUrl();
    }

    /** The streaming rate of replies. */
    public synchronized double tokensPerSecond() {
        return tokensPerSecond;
    }

    /** Sets the streaming rate of replies from now on; 0 for as fast as possible. */
    public synchronized void tokensPerSecond(double rate) {
        SimulatorServer.checkRate(rate);
        tokensPerSecond = rate;
        if (server != null) {
            server.tokensPerSecond(rate);
        }
    }

    /** Stops the server, if it runs, releasing every waiting request; {@link #baseUrl()} fails from now on. */
    @Override
    public synchronized void close() {
        closed = true;
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
