package dev.rebound.e2e;

import static dev.rebound.provider.WireFixture.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fallback chain across wire formats, end to end: the real jar over RPC, an Anthropic Messages primary that is
 * overloaded (a recorded 529 body, {@code retry-after: 1}), an OpenAI Responses fallback that answers, and the revert
 * to the primary once its cooldown is over. One loopback server plays both providers, by path.
 */
class CrossProviderFallbackIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String ANTHROPIC_KEY = "sk-ant-api03-itkey-0123456789abcdef";
    private static final String OPENAI_KEY = "sk-proj-itkey-0123456789abcdefghij";

    @TempDir
    Path configDir;

    private MockWebServer server;
    private ReboundProcess rebound;
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
    private final AtomicInteger anthropicCalls = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                String path = request.getUrl().encodedPath();
                String key = request.getHeaders().get("x-api-key") != null
                        ? "x-api-key=" + request.getHeaders().get("x-api-key")
                        : "bearer=" + request.getHeaders().get("Authorization");
                log.add(path + " " + key);
                try {
                    bodies.add(new com.fasterxml.jackson.databind.ObjectMapper()
                            .readTree(request.getBody().utf8()));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                if (path.equals("/v1/messages")) {
                    return anthropicCalls.incrementAndGet() == 1
                            ? new MockResponse.Builder()
                                    .code(529)
                                    .addHeader("Content-Type", "application/json")
                                    .addHeader("retry-after", "1")
                                    .addHeader("request-id", "req_011CXsim")
                                    .addHeader("x-should-retry", "true")
                                    .body(fixture("anthropic/error-529-overloaded_error.json"))
                                    .build()
                            : stream(fixture("anthropic/stream-text.sse"));
                }
                if (path.equals("/v1/responses")) {
                    return stream(fixture("openai-responses/stream-text.sse"));
                }
                return new MockResponse.Builder().code(404).build();
            }
        });
        server.start();
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "anthropic/claude-sonnet-4-5",
                  "providers": {
                    "anthropic": { "api": "anthropic-messages", "baseUrl": "%s",
                                   "models": [ { "id": "claude-sonnet-4-5" } ] },
                    "openai":    { "api": "openai-responses", "baseUrl": "%s",
                                   "models": [ { "id": "gpt-4.1" } ] } },
                  "retry": { "fallbackChains": { "default": ["openai/gpt-4.1"] } } }
                """.formatted(
                        server.url("/").toString(), server.url("/v1").toString()));
        Files.writeString(configDir.resolve("credentials.json"), """
                { "anthropic": [ { "label": "work", "apiKey": "%s" } ],
                  "openai": [ { "label": "team", "apiKey": "%s" } ] }
                """.formatted(ANTHROPIC_KEY, OPENAI_KEY));
        Files.setPosixFilePermissions(
                configDir.resolve("credentials.json"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    @AfterEach
    void stop() throws IOException {
        if (rebound != null) {
            rebound.close();
        }
        server.close();
    }

    private static MockResponse stream(String body) {
        return new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .body(body)
                .build();
    }

    private static String type(JsonNode frame) {
        return frame.path("type").asText();
    }

    /** The frames' types in order, a run of message_update written once as {@code message_update…}. */
    private static List<String> sequence(List<JsonNode> frames) {
        List<String> types = new java.util.ArrayList<>();
        for (JsonNode frame : frames) {
            String type = type(frame).equals("message_update") ? "message_update…" : type(frame);
            if (!(type.equals("message_update…")
                    && !types.isEmpty()
                    && types.getLast().equals(type))) {
                types.add(type);
            }
        }
        return types;
    }

    private static List<String> retryEvents(List<JsonNode> frames) {
        return frames.stream()
                .map(CrossProviderFallbackIT::type)
                .filter(t -> t.startsWith("auto_retry") || t.startsWith("retry_fallback") || t.equals("agent_end"))
                .toList();
    }

    private static JsonNode first(List<JsonNode> frames, String type) {
        return frames.stream()
                .filter(f -> type(f).equals(type))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " in " + frames));
    }

    @Test
    void anOverloadedAnthropicPrimaryFallsBackToOpenAiResponsesAndRevertsAfterItsCooldown() throws Exception {
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        assertThat(type(rebound.next(WAIT))).isEqualTo("ready");

        List<JsonNode> first = rebound.wholeTurn("Explain exponential backoff", WAIT);

        assertThat(sequence(first))
                .containsExactly(
                        "response",
                        "agent_start",
                        "message_start",
                        "message_end",
                        "message_start",
                        "message_end",
                        "agent_end",
                        "retry_fallback_applied",
                        "model_changed",
                        "auto_retry_start",
                        "agent_start",
                        "message_start",
                        "message_update…",
                        "message_end",
                        "retry_fallback_succeeded",
                        "auto_retry_end",
                        "retry_chain_end",
                        "agent_end");
        assertThat(retryEvents(first))
                .containsExactly(
                        "agent_end",
                        "retry_fallback_applied",
                        "auto_retry_start",
                        "retry_fallback_succeeded",
                        "auto_retry_end",
                        "agent_end");
        assertThat(first.get(first.size() - 1).path("willRetry").asBoolean()).isFalse();
        JsonNode retry = first(first, "auto_retry_start");
        assertThat(retry.path("errorKind").asText()).isEqualTo("transient");
        assertThat(retry.path("delayMs").asLong()).isZero();
        assertThat(retry.path("errorMessage").asText()).startsWith("529 Overloaded: Overloaded");
        assertThat(EventFrames.withoutScope(first(first, "retry_fallback_applied")))
                .isEqualTo("{\"type\":\"retry_fallback_applied\",\"from\":\"anthropic/claude-sonnet-4-5\","
                        + "\"to\":\"openai/gpt-4.1\",\"role\":\"default\"}");
        JsonNode answered = first.stream()
                .filter(f -> type(f).equals("message_end"))
                .reduce((a, b) -> b)
                .orElseThrow()
                .path("message");
        assertThat(answered.path("api").asText()).isEqualTo("openai-responses");
        assertThat(answered.path("stopReason").asText()).isEqualTo("stop");

        Thread.sleep(1_200);
        List<JsonNode> second = rebound.wholeTurn("And with jitter?", WAIT);

        assertThat(sequence(second))
                .containsExactly(
                        "response",
                        "retry_fallback_reverted",
                        "model_changed",
                        "agent_start",
                        "message_start",
                        "message_end",
                        "message_start",
                        "message_update…",
                        "message_end",
                        "agent_end");
        assertThat(retryEvents(second)).containsExactly("retry_fallback_reverted", "agent_end");
        assertThat(EventFrames.withoutScope(first(second, "retry_fallback_reverted")))
                .isEqualTo("{\"type\":\"retry_fallback_reverted\",\"from\":\"openai/gpt-4.1\","
                        + "\"to\":\"anthropic/claude-sonnet-4-5\"}");
        assertThat(log)
                .containsExactly(
                        "/v1/messages x-api-key=" + ANTHROPIC_KEY,
                        "/v1/responses bearer=Bearer " + OPENAI_KEY,
                        "/v1/messages x-api-key=" + ANTHROPIC_KEY);
        JsonNode fallback = bodies.get(1);
        assertThat(fallback.has("previous_response_id"))
                .as("nothing was stored for this chat")
                .isFalse();
        assertThat(fallback.path("input")).hasSize(1);
        assertThat(fallback.at("/input/0/content/0/text").asText()).isEqualTo("Explain exponential backoff");
        JsonNode reverted = bodies.get(2).path("messages");
        assertThat(reverted).as("question, OpenAI's answer, question").hasSize(3);
        assertThat(reverted.at("/1/role").asText()).isEqualTo("assistant");
        assertThat(reverted.at("/1/content/0/text").asText())
                .isEqualTo(answered.path("content").get(0).path("text").asText());
        assertThat(reverted.at("/2/content/0/text").asText()).isEqualTo("And with jitter?");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.stdout()).doesNotContain(ANTHROPIC_KEY).doesNotContain(OPENAI_KEY);
    }
}
