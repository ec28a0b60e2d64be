package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first rows of the fault suite of issue 18, as a table: one real Rebound process over RPC, one loopback server
 * misbehaving in a different way per row, retries off so that each row is one attempt. Every row must end its turn
 * with the expected failure kind (or a complete reply), and the process must answer the next row: no fault wedges it.
 * A canary key is configured throughout and the server echoes it; afterwards no byte of it may be found in stdout,
 * stderr, the log, the chat file or state/. The "never answers" row found a hang: a request the watchdog ended on a
 * kept-alive connection was sent again, with no first-byte limit left.
 */
class FaultSuiteIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String CANARY = "sk-canary-7d41c0ffee5e1f2a9b3c";

    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private ReboundProcess rebound;

    /** One row: what the server does, and how the turn must end ({@code stop} or a failure kind). */
    record Row(String name, Supplier<List<MockResponse>> answers, String outcome) {}

    private static MockResponse sse(String body) {
        return new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .body(body)
                .build();
    }

    private static String chunk(String text) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]}\n\n";
    }

    private static final String DONE =
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" + "data: [DONE]\n\n";

    private List<Row> rows() {
        return List.of(
                new Row("a reply", () -> List.of(sse(chunk("fine") + DONE)), "stop"),
                new Row(
                        "never answers",
                        () -> List.of(new MockResponse.Builder()
                                .headersDelay(10, TimeUnit.SECONDS)
                                .build()),
                        "timeout"),
                new Row(
                        "an error body echoing the key",
                        () -> List.of(new MockResponse.Builder()
                                .code(401)
                                .addHeader("Content-Type", "application/json")
                                .body("{\"error\":{\"message\":\"Incorrect API key provided: " + CANARY + "\"}}")
                                .build()),
                        "http"),
                new Row("a key echoed in a stream", () -> List.of(sse(chunk("your key is " + CANARY) + DONE)), "stop"),
                new Row("a reply after all that", () -> List.of(sse(chunk("still here") + DONE)), "stop"));
    }

    @AfterEach
    void stop() {
        if (rebound != null) {
            rebound.close();
        }
        server.close();
    }

    private static String type(JsonNode frame) {
        return frame.path("type").asText();
    }

    @Test
    void everyMisbehaviourEndsItsTurnAsExpectedNothingWedgesAndTheCanaryKeyIsNowhere() throws Exception {
        server.start();
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "local/test-model",
                  "providers": { "local": { "api": "openai-completions", "baseUrl": "%s",
                                            "models": [ { "id": "test-model" } ] } },
                  "retry": { "enabled": false },
                  "timeouts": { "connectMs": 2000, "firstByteMs": 1500, "idleMs": 1500 },
                  "limits": { "maxResponseBytes": 1048576 } }
                """.formatted(server.url("/v1")));
        Files.writeString(
                configDir.resolve("credentials.json"),
                "{ \"local\": [ { \"label\": \"canary\", \"apiKey\": \"" + CANARY + "\" } ] }");
        Files.setPosixFilePermissions(
                configDir.resolve("credentials.json"), PosixFilePermissions.fromString("rw-------"));
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        assertThat(type(rebound.next(WAIT))).isEqualTo("ready");

        List<String> outcomes = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (Row row : rows()) {
            row.answers().get().forEach(server::enqueue);
            List<JsonNode> frames;
            try {
                frames = rebound.wholeTurn(row.name(), WAIT);
            } catch (AssertionError e) {
                throw new AssertionError(
                        "row '" + row.name() + "': " + e.getMessage() + "\nlog:\n"
                                + Files.readString(configDir.resolve("logs/rebound.log")),
                        e);
            }
            JsonNode reply = frames.stream()
                    .filter(f -> type(f).equals("message_end"))
                    .reduce((a, b) -> b)
                    .orElseThrow()
                    .path("message");
            String outcome = reply.path("stopReason").asText().equals("error")
                    ? reply.path("failure").path("kind").asText()
                    : reply.path("stopReason").asText();
            outcomes.add(row.name() + ": " + outcome);
            expected.add(row.name() + ": " + row.outcome());
        }
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();

        assertThat(outcomes).containsExactlyElementsOf(expected);
        assertThat(rebound.stdout()).doesNotContain(CANARY);
        assertThat(rebound.stderr()).doesNotContain(CANARY);
        try (Stream<Path> files = Files.walk(configDir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (file.getFileName().toString().equals("credentials.json")) {
                    continue;
                }
                byte[] bytes = Files.readAllBytes(file);
                String name = file.getFileName().toString();
                String text = name.endsWith(".gz")
                        ? new String(
                                new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(bytes))
                                        .readAllBytes(),
                                StandardCharsets.UTF_8)
                        : new String(bytes, StandardCharsets.UTF_8);
                assertThat(text)
                        .as("%s holds no byte of the canary key", configDir.relativize(file))
                        .doesNotContain(CANARY);
            }
        }
    }
}
