package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The retry engine end to end: the real jar over RPC against an OpenAI-compatible server on loopback. */
class RetryIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path configDir;

    private MockWebServer server;
    private ReboundProcess rebound;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.start();
    }

    @AfterEach
    void stop() throws IOException {
        if (rebound != null) {
            rebound.close();
        }
        server.close();
    }

    private void startRebound(String retry) throws Exception {
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "local/test-model",
                  "providers": { "local": { "api": "openai-completions", "baseUrl": "%s",
                                            "models": [ { "id": "test-model" } ] } },
                  "retry": %s }
                """.formatted(server.url("/v1"), retry));
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        assertThat(type(rebound.next(WAIT))).isEqualTo("ready");
    }

    private static String type(JsonNode f) {
        return f.path("type").asText();
    }

    private static MockResponse overloaded() {
        return new MockResponse.Builder()
                .code(529)
                .addHeader("Content-Type", "application/json")
                .body("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
                .build();
    }

    private static MockResponse status(int code, String body, String... headers) {
        MockResponse.Builder b = new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body);
        for (int i = 0; i < headers.length; i += 2) {
            b.addHeader(headers[i], headers[i + 1]);
        }
        return b.build();
    }

    @Test
    void threeOverloadsThenSuccessRetriesAndStreamsTheReply() throws Exception {
        server.enqueue(overloaded());
        server.enqueue(overloaded());
        server.enqueue(overloaded());
        server.enqueue(Sse.reply("Made it"));
        startRebound("{ \"baseDelayMs\": 20 }");
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();

        List<JsonNode> frames = rebound.drain();
        List<String> retryFrames = frames.stream()
                .map(RetryIT::type)
                .filter(t -> t.startsWith("auto_retry") || t.equals("agent_end") || t.equals("retry_chain_end"))
                .toList();
        assertThat(retryFrames)
                .containsExactly(
                        "agent_end",
                        "auto_retry_start",
                        "agent_end",
                        "auto_retry_start",
                        "agent_end",
                        "auto_retry_start",
                        "auto_retry_end",
                        "retry_chain_end",
                        "agent_end");
        List<JsonNode> starts =
                frames.stream().filter(f -> type(f).equals("auto_retry_start")).toList();
        assertThat(starts).extracting(f -> f.path("attempt").asInt()).containsExactly(1, 2, 3);
        assertThat(starts.getFirst().path("errorKind").asText()).isEqualTo("transient");
        assertThat(starts.getFirst().path("maxAttempts").asInt()).isEqualTo(10);
        assertThat(starts.getFirst().path("model").asText()).isEqualTo("local/test-model");
        assertThat(starts.getFirst().path("errorMessage").asText()).startsWith("529 Overloaded");
        assertThat(starts)
                .allSatisfy(f -> assertThat(f.path("delayMs").asLong()).isBetween(15L, 80L));
        JsonNode end = frames.stream()
                .filter(f -> type(f).equals("auto_retry_end"))
                .findFirst()
                .orElseThrow();
        assertThat(EventFrames.withoutScope(end))
                .isEqualTo(
                        "{\"type\":\"auto_retry_end\",\"success\":true,\"attempt\":3," + "\"reason\":\"succeeded\"}");
        assertThat(end.path("turnId").asText())
                .isEqualTo(starts.getFirst().path("turnId").asText());
        assertThat(end.path("sessionId").asText()).isNotEmpty();
        assertThat(frames.stream()
                        .filter(f -> type(f).equals("message_update"))
                        .map(f -> f.path("delta").asText())
                        .toList())
                .containsExactly("Made it");
        assertThat(server.getRequestCount()).isEqualTo(4);
    }

    @Test
    void exhaustionReportsTheLastErrorUnchanged() throws Exception {
        for (int i = 0; i < 3; i++) {
            server.enqueue(status(
                    503, "{\"error\":{\"message\":\"The server is overloaded\",\"type\":" + "\"server_error\"}}"));
        }
        startRebound("{ \"baseDelayMs\": 10, \"maxRetries\": 2 }");
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        JsonNode end = rebound.until(f -> type(f).equals("auto_retry_end"), WAIT);
        assertThat(end.path("success").asBoolean()).isFalse();
        assertThat(end.path("attempt").asInt()).isEqualTo(2);
        assertThat(end.path("reason").asText()).isEqualTo("exhausted");
        assertThat(end.path("finalError").asText())
                .isEqualTo("503 Service Unavailable: The server is overloaded (type: server_error)");
        JsonNode record = rebound.next(WAIT);
        assertThat(type(record)).isEqualTo("retry_chain_end");
        assertThat(record.path("attempts")).hasSize(3);
        assertThat(record.path("attempts").get(0).path("httpStatus").asInt()).isEqualTo(503);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void abortRetryDuringATenSecondBackoffEndsTheChainPromptlyAndSendsNothingMore() throws Exception {
        server.enqueue(status(
                529,
                "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":" + "\"Overloaded\"}}",
                "retry-after",
                "10"));
        server.enqueue(Sse.reply("must never be asked for"));
        startRebound("{}");
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        JsonNode start = rebound.until(f -> type(f).equals("auto_retry_start"), WAIT);
        assertThat(start.path("delayMs").asLong()).isEqualTo(10_000);

        rebound.send("{\"id\":\"s\",\"type\":\"get_state\"}");
        JsonNode state =
                rebound.until(f -> "s".equals(f.path("id").asText()), WAIT).path("data");
        assertThat(state.path("isRetrying").asBoolean()).isTrue();
        assertThat(state.path("retryAttempt").asInt()).isEqualTo(1);

        long sent = System.nanoTime();
        rebound.send("{\"id\":\"c\",\"type\":\"abort_retry\"}");
        JsonNode end = rebound.until(f -> type(f).equals("auto_retry_end"), WAIT);
        Duration latency = Duration.ofNanos(System.nanoTime() - sent);
        assertThat(end.path("success").asBoolean()).isFalse();
        assertThat(end.path("finalError").asText()).isEqualTo("Retry cancelled");
        assertThat(end.path("reason").asText()).isEqualTo("cancelled");
        assertThat(latency).isLessThan(Duration.ofSeconds(2));

        Thread.sleep(1500);
        assertThat(server.getRequestCount()).isEqualTo(1);
        rebound.send("{\"id\":\"s2\",\"type\":\"get_state\"}");
        JsonNode after =
                rebound.until(f -> "s2".equals(f.path("id").asText()), WAIT).path("data");
        assertThat(after.path("isRetrying").asBoolean()).isFalse();
        assertThat(after.path("isTurnRunning").asBoolean()).isFalse();
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void retryNowSendsThePendingRequestAtOnce() throws Exception {
        server.enqueue(status(
                529,
                "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":" + "\"Overloaded\"}}",
                "retry-after",
                "30"));
        server.enqueue(Sse.reply("now"));
        startRebound("{}");
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.until(f -> type(f).equals("auto_retry_start"), WAIT);
        long sent = System.nanoTime();
        rebound.send("{\"type\":\"retry_now\"}");
        JsonNode end = rebound.until(f -> type(f).equals("auto_retry_end"), WAIT);
        assertThat(end.path("success").asBoolean()).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(5));
        assertThat(server.getRequestCount()).isEqualTo(2);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void anAuthenticationFailureIsNotRetried() throws Exception {
        server.enqueue(status(
                401,
                "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":"
                        + "\"invalid x-api-key\"}}"));
        startRebound("{ \"baseDelayMs\": 10 }");
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        JsonNode end = rebound.until(f -> type(f).equals("agent_end"), WAIT);
        assertThat(end.path("willRetry").asBoolean()).isFalse();
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.drain()).extracting(RetryIT::type).doesNotContain("auto_retry_start", "auto_retry_end");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void aContextOverflowIsNotRetriedAndExplainsWhatToDo() throws Exception {
        server.enqueue(
                status(
                        400,
                        "{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens. "
                                + "However, your messages resulted in 9000 tokens. Please reduce the length of the messages.\","
                                + "\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}"));
        startRebound("{ \"baseDelayMs\": 10 }");
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        JsonNode notice = rebound.until(f -> type(f).equals("notice"), WAIT);
        assertThat(notice.path("message").asText()).contains("too long");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.drain()).extracting(RetryIT::type).doesNotContain("auto_retry_start");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void setAutoRetryFalseIsPersistedAndStopsRetrying() throws Exception {
        server.enqueue(overloaded());
        startRebound("{ \"baseDelayMs\": 10 }");
        rebound.send("{\"id\":1,\"type\":\"set_auto_retry\",\"enabled\":false}");
        assertThat(rebound.next(WAIT).path("success").asBoolean()).isTrue();
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.until(f -> type(f).equals("agent_end"), WAIT);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.drain()).extracting(RetryIT::type).doesNotContain("auto_retry_start");
        assertThat(server.getRequestCount()).isEqualTo(1);
        JsonNode saved =
                new ObjectMapper().readTree(configDir.resolve("settings.json").toFile());
        assertThat(saved.path("retry").path("enabled").asBoolean(true)).isFalse();
    }
}
