package dev.rebound.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures, over RPC against the real jar, (1) cancel latency: from {@code abort_retry} written to
 * {@code auto_retry_end} read, and (2) backoff accuracy: the gap between two requests in the server's log against the
 * {@code delayMs} Rebound announced. A harness, not a test: it asserts nothing about time and is run on demand:
 * {@code ./mvnw -pl plugin-api,app verify -Dit.test=RetryTimingBenchmark -Dsurefire.skip=true}. Figures go to stdout and
 * {@code app/target/benchmarks/retry-timing.txt}; docs/benchmarks.md records them.
 */
class RetryTimingBenchmark {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int CANCEL_RUNS = Integer.getInteger("bench.cancelRuns", 200);
    private static final int CHAINS = Integer.getInteger("bench.chains", 10);
    private static final int RETRIES_PER_CHAIN = 8;

    @TempDir
    Path configDir;

    @Test
    void measure() throws Exception {
        List<String> report = new ArrayList<>();
        report.addAll(cancelLatency());
        report.addAll(backoffAccuracy());
        Path out = Path.of("target", "benchmarks", "retry-timing.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
        report.forEach(System.err::println);
    }

    private List<String> cancelLatency() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) {
                    return new MockResponse.Builder()
                            .code(529)
                            .addHeader("retry-after", "10")
                            .body("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":"
                                    + "\"Overloaded\"}}")
                            .build();
                }
            });
            server.start();
            settings(server, "{}");
            List<Long> micros = new ArrayList<>();
            try (Rpc rpc = Rpc.start(configDir)) {
                for (int i = 0; i < CANCEL_RUNS + 10; i++) {
                    rpc.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
                    rpc.until("auto_retry_start");
                    long t0 = System.nanoTime();
                    rpc.send("{\"type\":\"abort_retry\"}");
                    rpc.until("auto_retry_end");
                    long t1 = System.nanoTime();
                    rpc.until("retry_chain_end");
                    if (i >= 10) {
                        micros.add((t1 - t0) / 1000);
                    }
                }
            }
            Collections.sort(micros);
            return List.of(String.format(
                    Locale.ROOT,
                    "cancel latency (abort_retry written -> auto_retry_end read), %d runs after 10 warm-up: "
                            + "p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
                    micros.size(),
                    pct(micros, 50) / 1000.0,
                    pct(micros, 90) / 1000.0,
                    pct(micros, 99) / 1000.0,
                    micros.getLast() / 1000.0));
        }
    }

    private List<String> backoffAccuracy() throws Exception {
        List<Long> arrivals = new CopyOnWriteArrayList<>();
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) {
                    arrivals.add(System.nanoTime());
                    long hint = 50 + (arrivals.size() * 37L) % 250;
                    return new MockResponse.Builder()
                            .code(503)
                            .addHeader("retry-after-ms", Long.toString(hint))
                            .body("{\"error\":{\"message\":\"busy\",\"type\":\"server_error\"}}")
                            .build();
                }
            });
            // MockWebServer leaves Nagle on; production servers turn it off. With it on, the first response of every
            // turn reaches Rebound ~45 ms late (a delayed ACK), which is the test server's doing, not the backoff's.
            if (!Boolean.getBoolean("bench.serverNagle")) {
                server.setServerSocketFactory(new NoDelayServerSockets());
            }
            server.start();
            settings(server, "{ \"baseDelayMs\": 1, \"maxRetries\": " + RETRIES_PER_CHAIN + " }");
            List<Long> overshootMicros = new ArrayList<>();
            List<Long> planned = new ArrayList<>();
            try (Rpc rpc = Rpc.start(configDir)) {
                for (int chain = 0; chain <= CHAINS; chain++) {
                    int first = arrivals.size();
                    List<Long> delays = new ArrayList<>();
                    rpc.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
                    while (true) {
                        JsonNode f = rpc.until("auto_retry_start", "auto_retry_end");
                        if (f.path("type").asText().equals("auto_retry_end")) {
                            break;
                        }
                        delays.add(f.path("delayMs").asLong());
                    }
                    rpc.until("agent_end");
                    if (chain == 0) {
                        continue;
                    }
                    for (int i = 0; i < delays.size(); i++) {
                        long gapMicros = (arrivals.get(first + i + 1) - arrivals.get(first + i)) / 1000;
                        overshootMicros.add(gapMicros - delays.get(i) * 1000);
                        planned.add(delays.get(i));
                    }
                }
            }
            List<Long> sorted = new ArrayList<>(overshootMicros);
            Collections.sort(sorted);
            long within20 = sorted.stream().filter(m -> m <= 20_000).count();
            return List.of(String.format(
                    Locale.ROOT,
                    "backoff accuracy (server-side gap between requests minus announced delayMs, server Nagle "
                            + (Boolean.getBoolean("bench.serverNagle") ? "on" : "off") + "), %d chains x %d "
                            + "retries after 1 warm-up chain, planned %d..%d ms: min %+.2f ms, p50 %+.2f ms, "
                            + "p90 %+.2f ms, p99 %+.2f ms, max %+.2f ms; within +20 ms: %d of %d",
                    CHAINS,
                    RETRIES_PER_CHAIN,
                    Collections.min(planned),
                    Collections.max(planned),
                    sorted.getFirst() / 1000.0,
                    pct(sorted, 50) / 1000.0,
                    pct(sorted, 90) / 1000.0,
                    pct(sorted, 99) / 1000.0,
                    sorted.getLast() / 1000.0,
                    within20,
                    sorted.size()));
        }
    }

    private void settings(MockWebServer server, String retry) throws IOException {
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "local/m",
                  "providers": { "local": { "api": "openai-completions", "baseUrl": "%s",
                                            "models": [ { "id": "m" } ] } },
                  "retry": %s }
                """.formatted(server.url("/v1"), retry));
    }

    private static long pct(List<Long> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    /** Accepted sockets with Nagle's algorithm off, as production HTTP servers run. */
    private static final class NoDelayServerSockets extends javax.net.ServerSocketFactory {
        @Override
        public java.net.ServerSocket createServerSocket() throws IOException {
            return new java.net.ServerSocket() {
                @Override
                public java.net.Socket accept() throws IOException {
                    java.net.Socket socket = super.accept();
                    socket.setTcpNoDelay(true);
                    return socket;
                }
            };
        }

        @Override
        public java.net.ServerSocket createServerSocket(int port) throws IOException {
            throw new UnsupportedOperationException("MockWebServer binds an unbound socket");
        }

        @Override
        public java.net.ServerSocket createServerSocket(int port, int backlog) throws IOException {
            throw new UnsupportedOperationException("MockWebServer binds an unbound socket");
        }

        @Override
        public java.net.ServerSocket createServerSocket(int port, int backlog, java.net.InetAddress address)
                throws IOException {
            throw new UnsupportedOperationException("MockWebServer binds an unbound socket");
        }
    }

    /** The real jar in RPC mode, read frame by frame. */
    private static final class Rpc implements AutoCloseable {
        private final dev.rebound.e2e.BenchProcess process;

        private Rpc(dev.rebound.e2e.BenchProcess process) {
            this.process = process;
        }

        static Rpc start(Path configDir) throws Exception {
            dev.rebound.e2e.BenchProcess p = dev.rebound.e2e.BenchProcess.start(configDir, Map.of());
            p.until(f -> f.path("type").asText().equals("ready"), WAIT);
            return new Rpc(p);
        }

        void send(String line) throws IOException {
            process.send(line);
        }

        JsonNode until(String... types) throws InterruptedException {
            List<String> wanted = List.of(types);
            return process.until(f -> wanted.contains(f.path("type").asText()), WAIT);
        }

        @Override
        public void close() throws Exception {
            process.closeStdin();
            process.waitForExit(WAIT);
            process.close();
        }
    }
}
