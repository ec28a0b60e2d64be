package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The families of real-world errors of issue 13, end to end: the real jar over RPC against a server on loopback that
 * answers with real error bodies (each from {@code error-corpus.json}, which names its public source). Each test checks
 * the number of requests, the delays and the final events the retry policy asks for.
 */
class RetryFamiliesIT {
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

    private void startRebound(String retry, int keys) throws Exception {
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "cloud/model-x",
                  "providers": { "cloud": { "api": "openai-completions", "baseUrl": "%s",
                                            "models": [ { "id": "model-x" } ] } },
                  "retry": %s }
                """.formatted(server.url("/v1"), retry));
        if (keys > 0) {
            StringBuilder credentials = new StringBuilder("{ \"cloud\": [");
            for (int i = 0; i < keys; i++) {
                credentials
                        .append(i == 0 ? "" : ",")
                        .append(" { \"label\": \"key")
                        .append(i + 1)
                        .append("\", \"apiKey\": \"sk-test-")
                        .append("abcdefghijkl".repeat(2))
                        .append(i)
                        .append("\" }");
            }
            Files.writeString(
                    configDir.resolve("credentials.json"),
                    credentials.append(" ] }").toString());
        }
        rebound = ReboundProcess.start(configDir, Map.of("TZ", "UTC"), "--mode", "rpc");
        assertThat(type(rebound.next(WAIT))).isEqualTo("ready");
    }

    private static String type(JsonNode f) {
        return f.path("type").asText();
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }

    /** A 200 event stream whose only event is an error object, as gateways send an upstream's failure. */
    private static MockResponse streamError(String errorJson) {
        return new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body("data: " + errorJson + "\n\n")
                .build();
    }

    private List<JsonNode> turn(String message) throws Exception {
        return rebound.wholeTurn(message, WAIT);
    }

    private static List<JsonNode> ofType(List<JsonNode> frames, String type) {
        return frames.stream().filter(f -> type(f).equals(type)).toList();
    }

    /** The error notices of a turn (a warning about the test's credentials file mode is not one of them). */
    private static List<JsonNode> errorNotices(List<JsonNode> frames) {
        return ofType(frames, "notice").stream()
                .filter(n -> n.path("level").asText().equals("error"))
                .toList();
    }

    @Test
    void aTransportFailureReportedAsTextInsideTheStreamIsRetriedWithBackoff() throws Exception {
        // LiteLLM passing httpx's words through (error-corpus: litellm-api-connection-error-anthropic-incomplete-read).
        server.enqueue(streamError("{\"error\":{\"message\":\"litellm.APIConnectionError: AnthropicException - peer "
                + "closed connection without sending complete message body (incomplete chunked read)\"}}"));
        server.enqueue(streamError("{\"error\":{\"message\":\"TypeError: fetch failed; caused by SocketError: other "
                + "side closed\"}}"));
        server.enqueue(Sse.reply("Back on track."));
        startRebound("{ \"baseDelayMs\": 20 }", 1);

        List<JsonNode> frames = turn("hi");

        assertThat(ofType(frames, "auto_retry_start"))
                .extracting(f -> f.path("errorKind").asText())
                .containsExactly("transient", "transient");
        // §3 step 5: base · 2^(attempt−1) times a jitter factor in [0.75, 1.00].
        List<JsonNode> starts = ofType(frames, "auto_retry_start");
        assertThat(starts.get(0).path("delayMs").asLong()).isBetween(15L, 20L);
        assertThat(starts.get(1).path("delayMs").asLong()).isBetween(30L, 40L);
        assertThat(ofType(frames, "auto_retry_end"))
                .singleElement()
                .satisfies(f -> assertThat(f.path("success").asBoolean()).isTrue());
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void aDailyQuotaTypedAsARateLimitSwitchesKeysAtOnceAndIsNotRetriedAfterMilliseconds() throws Exception {
        // Groq's tokens-per-day limit (error-corpus: groq-429-tokens-per-day-untyped), typed as a rate limit.
        String daily = "{\"error\":{\"message\":\"Rate limit reached for model `llama-3.3-70b-versatile` in "
                + "organization `org_x` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 97050, "
                + "Requested 3619. Please try again in 9m38.016s.\",\"type\":\"tokens\",\"code\":"
                + "\"rate_limit_exceeded\"}}";
        server.enqueue(json(429, daily));
        server.enqueue(Sse.reply("From the second key."));
        server.enqueue(json(429, daily));
        startRebound("{ \"baseDelayMs\": 20 }", 2);

        List<JsonNode> first = turn("one");
        assertThat(ofType(first, "credential_switched"))
                .singleElement()
                .satisfies(f -> assertThat(f.path("to").asText()).isEqualTo("key2"));
        assertThat(ofType(first, "auto_retry_start")).singleElement().satisfies(f -> {
            assertThat(f.path("errorKind").asText()).isEqualTo("usage_limit");
            assertThat(f.path("delayMs").asLong()).isZero();
        });

        // The second key's daily quota is spent too, and the first key is blocked for the 9m38s the provider named:
        // more than retry.maxDelayMs (5 min), so the turn fails at once instead of retrying after milliseconds.
        List<JsonNode> second = turn("two");
        assertThat(ofType(second, "auto_retry_start")).isEmpty();
        assertThat(ofType(second, "auto_retry_end")).singleElement().satisfies(f -> {
            assertThat(f.path("reason").asText()).isEqualTo("max_delay_exceeded");
            assertThat(f.path("finalError").asText()).contains("exceeds retry.maxDelayMs (300000ms)");
        });
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void aSubscriptionCapWithAWallClockResetWaitsUntilThatTime() throws Exception {
        ZonedDateTime reset =
                ZonedDateTime.now(ZoneOffset.UTC).plusMinutes(3).withSecond(0).withNano(0);
        String at = reset.format(DateTimeFormatter.ofPattern("h:mm a", java.util.Locale.US));
        server.enqueue(json(
                429,
                "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"You have "
                        + "reached your message limit. Your limit will reset at " + at + ".\"}}"));
        startRebound("{ \"maxDelayMs\": 600000 }", 1);

        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        JsonNode start = rebound.until(f -> type(f).equals("auto_retry_start"), WAIT);
        assertThat(start.path("errorKind").asText()).isEqualTo("usage_limit");
        // retryAt is the reset itself, give or take the moment between reading the hint and scheduling the retry.
        assertThat(start.path("retryAt").asLong())
                .isBetween(
                        reset.toInstant().toEpochMilli() - 1_000,
                        reset.toInstant().toEpochMilli() + 1_000);

        rebound.send("{\"type\":\"abort_retry\"}");
        JsonNode end = rebound.until(f -> type(f).equals("auto_retry_end"), WAIT);
        assertThat(end.path("reason").asText()).isEqualTo("cancelled");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void aRequestLargerThanThePerMinuteLimitEndsTheTurnAtOnceWithAdvice() throws Exception {
        // OpenAI (error-corpus: openai-429-tpm-request-too-large): Requested 30601 > Limit 30000.
        server.enqueue(
                json(
                        429,
                        "{\"error\":{\"message\":\"Request too large for gpt-4o in organization org-x on "
                                + "tokens per min (TPM): Limit 30000, Requested 30601. The input or output tokens must be reduced in "
                                + "order to run successfully.\",\"type\":\"tokens\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}"));
        startRebound("{ \"baseDelayMs\": 20 }", 1);

        List<JsonNode> frames = turn("a long prompt");

        assertThat(ofType(frames, "auto_retry_start")).isEmpty();
        assertThat(errorNotices(frames))
                .singleElement()
                .satisfies(n -> assertThat(n.path("message").asText())
                        .contains("larger than the per-minute token limit")
                        .contains("Shorten the conversation"));
        assertThat(frames.getLast().path("willRetry").asBoolean()).isFalse();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void anEntitlementGateSentAsARateLimitIsNotRetriedAndLeavesTheKeyUsable() throws Exception {
        server.enqueue(json(
                429,
                "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"Extra "
                        + "usage is required for long context requests.\"}}"));
        server.enqueue(Sse.reply("A short answer."));
        startRebound("{ \"baseDelayMs\": 20 }", 1);

        List<JsonNode> gated = turn("a very long prompt");
        assertThat(ofType(gated, "auto_retry_start")).isEmpty();
        assertThat(errorNotices(gated))
                .singleElement()
                .satisfies(n ->
                        assertThat(n.path("message").asText()).contains("does not include what this request needs"));

        List<JsonNode> next = turn("a short prompt");
        assertThat(ofType(next, "message_update")).isNotEmpty();
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void aLocalServerThatCannotLoadTheModelIsNotRetriedWhileALoadingServerIs() throws Exception {
        // Ollama (error-corpus: ollama-500-requires-more-system-memory) and llama.cpp (llamacpp-503-loading-model).
        server.enqueue(json(
                500, "{\"error\":\"model requires more system memory (3.7 GiB) than is available (3.6 " + "GiB)\"}"));
        server.enqueue(json(
                503, "{\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":" + "\"unavailable_error\"}}"));
        server.enqueue(Sse.reply("Loaded."));
        startRebound("{ \"baseDelayMs\": 20 }", 0);

        List<JsonNode> memory = turn("one");
        assertThat(ofType(memory, "auto_retry_start")).isEmpty();
        assertThat(errorNotices(memory))
                .singleElement()
                .satisfies(n -> assertThat(n.path("message").asText())
                        .contains("not enough memory")
                        .contains("smaller"));

        List<JsonNode> loading = turn("two");
        assertThat(ofType(loading, "auto_retry_start"))
                .singleElement()
                .satisfies(f -> assertThat(f.path("errorKind").asText()).isEqualTo("transient"));
        assertThat(ofType(loading, "auto_retry_end"))
                .singleElement()
                .satisfies(f -> assertThat(f.path("success").asBoolean()).isTrue());
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void aRepeatedShortUsageLimitBelievesTheHintAndLocksNobodyOut() throws Exception {
        // The review's repro: "Please retry in 1s." twice in one chain on the only key.
        String limit = "{\"error\":{\"message\":\"You have reached your usage limit. Please retry in 1s.\"}}";
        server.enqueue(json(429, limit));
        server.enqueue(json(429, limit));
        server.enqueue(Sse.reply("Made it."));
        server.enqueue(Sse.reply("And at once."));
        startRebound("{}", 1);

        List<JsonNode> first = turn("one");
        assertThat(ofType(first, "auto_retry_start"))
                .extracting(f -> f.path("delayMs").asLong())
                .containsExactly(1_000L, 2_000L);
        assertThat(ofType(first, "auto_retry_end"))
                .singleElement()
                .satisfies(f -> assertThat(f.path("success").asBoolean()).isTrue());

        long sent = System.nanoTime();
        List<JsonNode> second = turn("two");
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(10));
        assertThat(ofType(second, "auto_retry_start")).isEmpty();
        assertThat(ofType(second, "message_update")).isNotEmpty();
        assertThat(server.getRequestCount()).isEqualTo(4);
    }
}
