package dev.rebound.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

/** The RPC process harness, opened to the benchmarks package. */
public final class BenchProcess implements AutoCloseable {
    private final ReboundProcess process;

    private BenchProcess(ReboundProcess process) {
        this.process = process;
    }

    public static BenchProcess start(Path configDir, Map<String, String> env) throws IOException {
        return new BenchProcess(ReboundProcess.start(configDir, env, "--mode", "rpc"));
    }

    public void send(String line) throws IOException {
        process.send(line);
    }

    public JsonNode until(Predicate<JsonNode> match, Duration timeout) throws InterruptedException {
        return process.until(match, timeout);
    }

    public void closeStdin() throws IOException {
        process.closeStdin();
    }

    public int waitForExit(Duration timeout) throws InterruptedException {
        return process.waitForExit(timeout);
    }

    @Override
    public void close() {
        process.close();
    }
}
