package dev.rebound.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * The real {@code rebound.jar} started as a child process, as a script would start it. Collects stdout frames (JSON)
 * and stderr lines on background threads.
 */
final class ReboundProcess implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
    private final List<JsonNode> seen = new ArrayList<>();
    private final StringBuilder stdoutText = new StringBuilder();
    private final StringBuilder stderrText = new StringBuilder();
    private final Thread outReader;
    private final Thread errReader;

    /**
     * Test-only JVM options that start the child faster on these 2-core machines; behaviour is unchanged. CDS logging
     * is off so that an archive the JVM cannot use is skipped silently (its warnings would go to stdout).
     */
    private static final List<String> FAST_START =
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xlog:cds*=off,aot*=off");

    private ReboundProcess(Process process, boolean jsonFrames) {
        this.process = process;
        this.stdin = process.getOutputStream();
        this.outReader = Thread.ofPlatform().daemon().start(() -> pump(process, jsonFrames));
        this.errReader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (stderrText) {
                        stderrText.append(line).append('\n');
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
    }

    static ReboundProcess start(Path configDir, Map<String, String> env, String... args) throws IOException {
        return start(true, configDir, env, args);
    }

    static ReboundProcess start(boolean jsonFrames, Path configDir, Map<String, String> env, String... args)
            throws IOException {
        return start(List.of(), jsonFrames, configDir, env, args);
    }

    /** Started with these extra JVM options ({@code -Xmx256m}) before {@code -jar}. */
    static ReboundProcess start(
            List<String> jvmOptions, boolean jsonFrames, Path configDir, Map<String, String> env, String... args)
            throws IOException {
        ProcessBuilder pb = command(jvmOptions, configDir, args);
        pb.environment().putAll(env);
        return new ReboundProcess(pb.start(), jsonFrames);
    }

    /** The command line of {@link #start}, for a test that handles the process's streams itself. */
    static ProcessBuilder command(List<String> jvmOptions, Path configDir, String... args) {
        List<String> command = new ArrayList<>();
        command.add(java().toString());
        command.addAll(FAST_START);
        command.addAll(jvmOptions);
        ClassArchive.path().ifPresent(archive -> command.add("-XX:SharedArchiveFile=" + archive));
        command.add("-jar");
        command.add(jar().toString());
        if (configDir != null) {
            command.add("--config-dir");
            command.add(configDir.toString());
        }
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove("REBOUND_CONFIG_DIR");
        return pb;
    }

    private static Path java() {
        return Path.of(System.getProperty(
                "rebound.java",
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    }

    private static Path jar() {
        return Path.of(System.getProperty("rebound.jar", "target/rebound.jar"));
    }

    /**
     * A class-data-sharing archive of the jar's start-up classes (JDK dynamic CDS), made once by one training start
     * and then mapped by every child: each start loads and verifies about a quarter of a second less on these
     * machines. Test-only, like {@link #FAST_START}: the app's behaviour is the same with or without it. Kept next to
     * the jar while it is newer than the jar; {@code -Drebound.itClassArchive=false} starts children without it.
     */
    private static final class ClassArchive {
        private static final Optional<Path> PATH =
                Boolean.parseBoolean(System.getProperty("rebound.itClassArchive", "true")) ? make() : Optional.empty();

        static Optional<Path> path() {
            return PATH;
        }

        private static Optional<Path> make() {
            Path jar = jar().toAbsolutePath();
            Path archive = jar.resolveSibling("rebound-it.jsa");
            Path dir = null;
            try {
                if (Files.isRegularFile(archive)
                        && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0) {
                    return Optional.of(archive);
                }
                dir = Files.createTempDirectory("rebound-cds");
                // Another test JVM may train at the same time: each writes its own file, then renames it in place.
                Path made = dir.resolve("rebound-it.jsa");
                if (train(jar, dir, made)) {
                    Files.move(made, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    return Optional.of(archive);
                }
                return Optional.empty();
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            } finally {
                if (dir != null) {
                    try (Stream<Path> files = Files.walk(dir)) {
                        files.sorted(Comparator.reverseOrder())
                                .forEach(f -> f.toFile().delete());
                    } catch (IOException ignored) {
                        // a temp folder left behind
                    }
                }
            }
        }

        /** One RPC turn against a loopback server, as most tests run it; the JVM writes the archive as it exits. */
        private static boolean train(Path jar, Path dir, Path made) throws IOException, InterruptedException {
            try (MockWebServer server = new MockWebServer()) {
                server.setDispatcher(new Dispatcher() {
                    @Override
                    public MockResponse dispatch(RecordedRequest request) {
                        return Sse.reply("a reply ", "in pieces");
                    }
                });
                server.start();
                Path config = Files.createDirectory(dir.resolve("config"));
                Files.writeString(config.resolve("settings.json"), """
                        { "model": "local/m",
                          "providers": { "local": { "api": "openai-completions", "baseUrl": "%s",
                                                    "models": [ { "id": "m" } ] } } }
                        """.formatted(server.url("/v1")));
                List<String> command = new ArrayList<>();
                command.add(java().toString());
                command.addAll(FAST_START);
                command.add("-XX:ArchiveClassesAtExit=" + made);
                command.addAll(List.of("-jar", jar.toString(), "--config-dir", config.toString(), "--mode", "rpc"));
                ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
                pb.environment().remove("REBOUND_CONFIG_DIR");
                ReboundProcess training = new ReboundProcess(pb.start(), true);
                try {
                    Duration wait = Duration.ofSeconds(60);
                    training.until(f -> f.path("type").asText().equals("ready"), wait);
                    training.send("{\"id\":\"s\",\"type\":\"get_state\"}");
                    training.wholeTurn("hello", wait);
                    training.closeStdin();
                    return training.waitForExit(wait) == 0 && Files.isRegularFile(made);
                } catch (AssertionError failed) {
                    return false;
                } finally {
                    training.close();
                }
            }
        }
    }

    private void pump(Process p, boolean jsonFrames) {
        try (InputStreamReader r = new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)) {
            char[] buffer = new char[4096];
            StringBuilder partial = new StringBuilder();
            int n;
            while ((n = r.read(buffer)) >= 0) {
                synchronized (stdoutText) {
                    stdoutText.append(buffer, 0, n);
                }
                if (!jsonFrames) {
                    continue;
                }
                partial.append(buffer, 0, n);
                int newline;
                while ((newline = partial.indexOf("\n")) >= 0) {
                    String line = partial.substring(0, newline);
                    partial.delete(0, newline + 1);
                    try {
                        frames.add(JSON.readTree(line));
                    } catch (IOException e) {
                        frames.add(
                                JSON.createObjectNode().put("type", "NOT_JSON").put("line", line));
                    }
                }
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    /** Writes one command line. */
    void send(String jsonLine) throws IOException {
        stdin.write((jsonLine + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** Writes raw bytes. */
    void sendRaw(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    void closeStdin() throws IOException {
        stdin.close();
    }

    /** The next frame, failing after the timeout. */
    JsonNode next(Duration timeout) throws InterruptedException {
        JsonNode frame = frames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (frame == null) {
            throw new AssertionError(
                    "No frame within " + timeout + "; seen so far: " + seen + "\nstderr:\n" + stderr());
        }
        seen.add(frame);
        return frame;
    }

    /** Skips frames until one matches; returns it. */
    JsonNode until(Predicate<JsonNode> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("No matching frame within " + timeout + "; seen: " + seen);
            }
            JsonNode frame = next(Duration.ofNanos(left));
            if (match.test(frame)) {
                return frame;
            }
        }
    }

    /** Frames until (and including) the first of that type. */
    List<JsonNode> framesUntil(String type, Duration timeout) throws InterruptedException {
        List<JsonNode> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode f = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            out.add(f);
            if (type.equals(f.path("type").asText())) {
                return out;
            }
        }
    }

    /**
     * Sends a prompt and returns the frames of its whole turn, retries included: until the {@code agent_end} that
     * announces no retry.
     */
    List<JsonNode> wholeTurn(String message, Duration timeout) throws IOException, InterruptedException {
        send("{\"type\":\"prompt\",\"message\":" + JSON.writeValueAsString(message) + "}");
        List<JsonNode> frames = new ArrayList<>();
        while (true) {
            List<JsonNode> part = framesUntil("agent_end", timeout);
            frames.addAll(part);
            if (!part.getLast().path("willRetry").asBoolean()) {
                return frames;
            }
        }
    }

    int waitForExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("The process did not exit within " + timeout + "; stderr:\n" + stderr());
        }
        outReader.join(5000);
        errReader.join(5000);
        return process.exitValue();
    }

    /** Every frame received so far, including ones not yet consumed. */
    List<JsonNode> drain() {
        List<JsonNode> rest = new ArrayList<>();
        frames.drainTo(rest);
        seen.addAll(rest);
        return List.copyOf(seen);
    }

    long pid() {
        return process.pid();
    }

    String stdout() {
        synchronized (stdoutText) {
            return stdoutText.toString();
        }
    }

    String stderr() {
        synchronized (stderrText) {
            return stderrText.toString();
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
