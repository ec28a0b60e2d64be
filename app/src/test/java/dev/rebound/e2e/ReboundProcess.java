package dev.rebound.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

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
        List<String> command = new ArrayList<>();
        command.add(System.getProperty(
                "rebound.java",
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        // Test-only JVM options that start the child faster on these 2-core machines; behaviour is unchanged.
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-jar");
        command.add(System.getProperty("rebound.jar", "target/rebound.jar"));
        if (configDir != null) {
            command.add("--config-dir");
            command.add(configDir.toString());
        }
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove("REBOUND_CONFIG_DIR");
        pb.environment().putAll(env);
        return new ReboundProcess(pb.start(), jsonFrames);
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
