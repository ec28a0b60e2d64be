package dev.rebound.app;

import dev.rebound.simulator.FaultQueue;
import dev.rebound.simulator.SimulatorServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The workload of the packaged app's AOT caches (docs/packaging.md, "The AOT caches"); not a user command. The package
 * build runs it once, under {@code -XX:AOTMode=record}, through a copy of the app-image's launcher that differs from
 * {@code bin/rebound} only in its main class, so that the class path and JVM options are the image's own. A JDK 25
 * training run is one process, so the three ways Rebound starts run here one after the other, each through the real
 * command line ({@link Main}), first as a new user runs it (an empty config directory, where the built-in simulator
 * answers), then as a returning one does (a config directory whose {@code settings.json} names an OpenAI-compatible
 * provider with a key in {@code credentials.json}, served here by a {@link SimulatorServer} on 127.0.0.1):
 *
 * <ol>
 *   <li>{@code -p MESSAGE}: one prompt, the reply on stdout; new, then returning (twice, so that the second finds the
 *       first's chat and state files);
 *   <li>{@code --mode rpc} with one {@code prompt} frame on stdin, to the end of its turn; new, then returning;
 *   <li>the desktop window of the returning user, with the chats above in its sidebar, until its new chat is open
 *       (then the process exits; skipped when the system property {@code rebound.aotTraining.desktop} is {@code
 *       false}). The build gives {@code -Dglass.platform=Headless}, so no display is needed: the scene graph, controls,
 *       CSS and the app's views are the same classes either way; only the window toolkit's own differ.
 * </ol>
 *
 * Without the returning user's runs, a configured provider's path (reading and checking its settings, its keys, the
 * HTTP call to a server of one's own) was left out of the caches and paid for at every real start.
 *
 * The -p and RPC runs failing exit non-zero, so that the build never ships a cache trained on an error path.
 */
public final class AotTraining {
    private static final String PROMPT = "Why do retries need jitter?";
    /** The returning user's -p runs and RPC prompt, each one call to the configured provider. */
    private static final int CONFIGURED_CALLS = 3;
    /** How long the window stays open once its first chat is there: the reply area and its first frames. */
    private static final long SETTLE_MILLIS = 3_000;
    /** The longest wait for the first chat's file; the window is up by then on any machine that builds the package. */
    private static final long WINDOW_WAIT_MILLIS = 30_000;

    private AotTraining() {}

    public static void main(String[] args) throws Exception {
        StartupPrefetch.begin();
        Path root = Files.createTempDirectory("rebound-aot-training-");
        int failures = 0;
        try (SimulatorServer server =
                SimulatorServer.start(new SimulatorServer.Config(0, 0, 1), new FaultQueue(List.of()))) {
            Path returning = returningUser(root, server.baseUrl());
            failures += check("-p", run("--config-dir", config(root, "print").toString(), "-p", PROMPT));
            failures += check("-p, configured", run("--config-dir", returning.toString(), "-p", PROMPT));
            failures += check("-p, configured, again", run("--config-dir", returning.toString(), "-p", PROMPT));
            failures += rpc(config(root, "rpc"), "");
            failures += rpc(returning, ", configured");
            if (server.requestCount() < CONFIGURED_CALLS) {
                // Settings or keys misread: the runs fell back to the built-in simulator and trained nothing of this.
                Console.errWriter()
                        .println("rebound AOT training: the configured provider got " + server.requestCount() + " of "
                                + CONFIGURED_CALLS + " calls");
                failures++;
            }

            if (failures == 0 && !"false".equals(System.getProperty("rebound.aotTraining.desktop"))) {
                Thread exit = exitWhenShown(returning, root);
                // Returns only when the window could not open or was closed otherwise; else exitWhenShown exits.
                failures += check("desktop", run("--config-dir", returning.toString()));
                exit.interrupt();
            }
        } finally {
            delete(root);
        }
        System.exit(failures == 0 ? 0 : 1);
    }

    private static int rpc(Path config, String what) {
        InputStream stdin = System.in;
        String frame = "{\"type\":\"prompt\",\"message\":\"" + PROMPT + "\"}\n";
        System.setIn(new ByteArrayInputStream(frame.getBytes(StandardCharsets.UTF_8)));
        try {
            return check("--mode rpc" + what, run("--mode", "rpc", "--config-dir", config.toString()));
        } finally {
            System.setIn(stdin);
        }
    }

    /**
     * A config directory as a user who has set Rebound up has one: an OpenAI-compatible provider at {@code baseUrl}
     * as the model, with its key in {@code credentials.json} (owner-only, as Rebound writes it).
     */
    private static Path returningUser(Path root, String baseUrl) throws IOException {
        Path dir = config(root, "returning");
        Files.writeString(dir.resolve("settings.json"), """
                { "model": "local/%s",
                  "providers": { "local": { "api": "openai-completions", "baseUrl": "%s",
                                            "models": [ { "id": "%s", "contextWindow": 128000 } ] } } }
                """.formatted(
                        SimulatorServer.MODEL_ID, baseUrl, SimulatorServer.MODEL_ID));
        Path credentials = dir.resolve("credentials.json");
        Files.writeString(credentials, "{ \"local\": [ { \"label\": \"main\", \"apiKey\": \"sk-training\" } ] }");
        try {
            Files.setPosixFilePermissions(credentials, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // Windows: the store keeps the file as it finds it there.
        }
        return dir;
    }

    private static int run(String... args) {
        return Main.execute(args);
    }

    private static int check(String mode, int exitCode) {
        if (exitCode == 0) {
            return 0;
        }
        Console.errWriter().println("rebound AOT training: " + mode + " exited with " + exitCode);
        return 1;
    }

    /** A new, empty config directory: the built-in simulator answers, and the package's own plugins stay off. */
    private static Path config(Path root, String name) throws IOException {
        return Files.createDirectories(root.resolve(name));
    }

    /**
     * Ends the training once the window is up: when its new chat's file appears under {@code sessions/} (the chat
     * is made while the toolkit comes up, before the window is built, docs/startup.md; the earlier runs' files, none
     * of them empty, are there already, so the window makes a new one rather than reopening an empty one), or at
     * the latest {@link #WINDOW_WAIT_MILLIS} after the start, and then {@link #SETTLE_MILLIS} more, which covers the
     * window's building, styling and first frames (~0.6 s here). The JVM exits from here, which writes the AOT configuration; the
     * window is not closed first, since closing it is no part of starting. (No JavaFX here: the app's rule is that
     * only {@code ui} uses it, so the window is watched through what it writes.)
     */
    private static Thread exitWhenShown(Path config, Path root) {
        return Thread.ofPlatform().daemon().name("aot-training-exit").start(() -> {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WINDOW_WAIT_MILLIS);
            Path sessions = config.resolve("sessions");
            long before = chatFiles(sessions);
            try {
                while (System.nanoTime() < deadline && chatFiles(sessions) <= before) {
                    Thread.sleep(100);
                }
                Thread.sleep(SETTLE_MILLIS);
            } catch (InterruptedException e) {
                return; // the window closed or failed on its own: main reports it
            }
            delete(root);
            System.exit(0);
        });
    }

    private static long chatFiles(Path sessions) {
        if (!Files.isDirectory(sessions)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(sessions)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jsonl"))
                    .count();
        } catch (IOException e) {
            return 0;
        }
    }

    private static void delete(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            Console.errWriter().println("rebound AOT training: could not delete " + root + ": " + e.getMessage());
        }
    }
}
