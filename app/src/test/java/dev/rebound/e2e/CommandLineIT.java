package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line of the real jar: help, version, one-shot print mode, configuration errors. */
class CommandLineIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path configDir;

    private MockWebServer server;
    private ReboundProcess rebound;

    @BeforeEach
    void startServer() throws IOException {
        server = new MockWebServer();
        server.start();
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "local/test-model",
                  "providers": { "local": { "api": "openai-completions", "baseUrl": "%s",
                                            "models": [ { "id": "test-model" } ] } } }
                """.formatted(server.url("/v1")));
    }

    @AfterEach
    void stop() throws IOException {
        if (rebound != null) {
            rebound.close();
        }
        server.close();
    }

    @Test
    void printModeStreamsTheReplyToStdoutAndExitsZero() throws Exception {
        server.enqueue(Sse.reply("Hello", ", world"));
        rebound = ReboundProcess.start(false, configDir, Map.of(), "-p", "hi");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.stdout()).isEqualTo("Hello, world\n");
    }

    @Test
    void printModeExitsNonZeroWithTheErrorOnStderrWhenTheTurnFails() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(400)
                .addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens.\","
                        + "\"type\":\"invalid_request_error\",\"param\":\"messages\","
                        + "\"code\":\"context_length_exceeded\"}}")
                .build());
        rebound = ReboundProcess.start(false, configDir, Map.of(), "--print", "hi");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isEqualTo(1);
        assertThat(rebound.stdout()).isEmpty();
        assertThat(rebound.stderr()).contains("400").contains("maximum context length");
    }

    @Test
    void printModeReportsRetriesOnStderrAndTheFailFastReasonAtTheEnd() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(529)
                .addHeader("Content-Type", "application/json")
                .body("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .addHeader("Content-Type", "application/json")
                .addHeader("retry-after", "900")
                .body("{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\","
                        + "\"code\":\"rate_limit_exceeded\"}}")
                .build());
        rebound = ReboundProcess.start(false, configDir, Map.of(), "-p", "hi");
        assertThat(rebound.waitForExit(WAIT)).isEqualTo(1);
        assertThat(rebound.stdout()).isEmpty();
        assertThat(rebound.stderr())
                .contains("rebound: retrying (1/10) in 0.")
                .contains("rebound: Provider requested 900000ms wait, exceeds retry.maxDelayMs (300000ms)");
    }

    @Test
    void aTruncatedStreamIsAFailureInPrintModeNotAnAnswer() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(Sse.chunk("Half an ans"))
                .build());
        rebound = ReboundProcess.start(false, configDir, Map.of(), "-p", "hi");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isEqualTo(1);
        assertThat(rebound.stdout()).isEqualTo("Half an ans");
        assertThat(rebound.stderr()).containsIgnoringCase("ended before the reply was complete");
    }

    @Test
    void anUnknownModelOptionIsAClearUsageError() throws Exception {
        rebound = ReboundProcess.start(false, configDir, Map.of(), "--model", "local/nope", "-p", "hi");
        assertThat(rebound.waitForExit(WAIT)).isEqualTo(2);
        assertThat(rebound.stderr())
                .contains("local/nope")
                .contains("not configured")
                .contains("local/test-model");
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void helpListsEveryOptionAndVersionNamesTheApp() throws Exception {
        rebound = ReboundProcess.start(false, null, Map.of(), "--help");
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.stdout())
                .contains(
                        "--mode",
                        "--config-dir",
                        "--model",
                        "--session",
                        "--plugins-dir",
                        "--no-plugins",
                        "--print",
                        "--version");
        rebound.close();
        rebound = ReboundProcess.start(false, null, Map.of(), "--version");
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.stdout()).startsWith("Rebound 0.");
    }

    @Test
    void theConfigDirectoryComesFromTheEnvironmentWhenNoOptionIsGiven() throws Exception {
        server.enqueue(Sse.reply("from env dir"));
        rebound = ReboundProcess.start(false, null, Map.of("REBOUND_CONFIG_DIR", configDir.toString()), "-p", "hi");
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.stdout()).isEqualTo("from env dir\n");
        assertThat(configDir.resolve("logs/rebound.log")).exists();
    }
}
