package dev.rebound.provider;

import static dev.rebound.provider.WireFixture.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.provider.anthropic.AnthropicMessagesWire;
import dev.rebound.provider.gemini.GeminiWire;
import dev.rebound.provider.openai.ChatCompletionsWire;
import dev.rebound.provider.openai.ResponsesWire;
import dev.rebound.settings.ConfigValue;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.TimeoutSettings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.StopReason;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every wire format shares through {@link StreamingCall}, checked on each of the four against a loopback server
 * with that format's recorded success stream: a stall and a cut stream are never an answer, an abort ends the call at
 * once, a dead port is a transport failure, a request lost on a kept-alive connection the server closed is sent again
 * invisibly, and a server echoing the key or a secret header has it removed.
 */
class EveryWireFormatTest {
    private static final String KEY = "sk-every-format-0123456789abcdef";
    private static final String SECRET_HEADER = "hdr-secret-0123456789";

    /** One wire format: its settings api, base URL path, model and recorded success stream. */
    record Format(String name, WireFormat wire, ProviderApi api, String path, String model, String stream) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Format> formats() {
        return Stream.of(
                new Format(
                        "chat completions",
                        new ChatCompletionsWire(),
                        ProviderApi.OPENAI_COMPLETIONS,
                        "/v1",
                        "gpt-4.1",
                        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n"
                                + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello there\"}}]}\n\n"
                                + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\", friend\"}}]}\n\n"
                                + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                                + "data: [DONE]\n\n"),
                new Format(
                        "responses",
                        new ResponsesWire(),
                        ProviderApi.OPENAI_RESPONSES,
                        "/v1",
                        "gpt-4.1",
                        fixture("openai-responses/stream-text.sse")),
                new Format(
                        "anthropic",
                        new AnthropicMessagesWire(),
                        ProviderApi.ANTHROPIC_MESSAGES,
                        "/",
                        "claude-sonnet-4-5",
                        fixture("anthropic/stream-text.sse")),
                new Format(
                        "gemini",
                        new GeminiWire(),
                        ProviderApi.GOOGLE_GEMINI,
                        "/",
                        "gemini-2.5-flash",
                        fixture("gemini/stream-text.sse")));
    }

    private static WireFixture fixtureFor(Format format) {
        return new WireFixture(format.wire(), format.api(), KEY, Map.of("SECRET_HEADER", SECRET_HEADER));
    }

    private static ProviderRequest request(WireFixture fixture, Format format, TimeoutSettings timeouts) {
        ProviderConfig config = fixture.config(fixture.baseUrl(format.path()), format.model())
                .withHeaders(Map.of("X-Api-Token", ConfigValue.fromEnv("SECRET_HEADER")));
        return fixture.request(config, format.model()).withTimeouts(timeouts);
    }

    private static MockResponse stream(String body) {
        return WireFixture.eventStream(body);
    }

    /** The stream up to the end of its second event (events end in a blank line, LF or CRLF). */
    private static String firstEvents(String stream) {
        java.util.regex.Matcher end =
                java.util.regex.Pattern.compile("\r?\n\r?\n").matcher(stream);
        end.find();
        end.find();
        return stream.substring(0, end.end());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void theRecordedStreamIsAnAnswerAndTheSecretHeaderIsSent(Format format) throws Exception {
        try (WireFixture fixture = fixtureFor(format)) {
            fixture.enqueue(stream(format.stream()));

            AssistantMessage message =
                    fixture.stream(request(fixture, format, WireFixture.QUICK)).message();

            assertThat(message.stopReason()).as(message.errorMessage()).isEqualTo(StopReason.STOP);
            assertThat(message.text()).isNotBlank();
            assertThat(fixture.takeRequest().getHeaders().get("X-Api-Token")).isEqualTo(SECRET_HEADER);
        }
    }

    /** Where each API takes the system prompt (JSON pointers into the request body). */
    private static final Map<String, String> SYSTEM_PROMPT_AT = Map.of(
            "chat completions", "/messages/0/content",
            "responses", "/instructions",
            "anthropic", "/system",
            "gemini", "/systemInstruction/parts/0/text");

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void theSystemPromptGoesWhereEachApiTakesItAndNothingIsSentWithoutOne(Format format) throws Exception {
        String instructions = "Answer like a pirate.\nKeep it short.";
        try (WireFixture fixture = fixtureFor(format)) {
            fixture.enqueue(stream(format.stream()));
            fixture.enqueue(stream(format.stream()));

            fixture.stream(request(fixture, format, WireFixture.QUICK).withSystemPrompt(instructions));
            fixture.stream(request(fixture, format, WireFixture.QUICK));

            com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
            com.fasterxml.jackson.databind.JsonNode with =
                    json.readTree(fixture.takeRequest().getBody().utf8());
            com.fasterxml.jackson.databind.JsonNode without =
                    json.readTree(fixture.takeRequest().getBody().utf8());
            String at = SYSTEM_PROMPT_AT.get(format.name());
            assertThat(with.at(at).asText()).isEqualTo(instructions);
            if (format.name().equals("chat completions")) {
                assertThat(with.at("/messages/0/role").asText()).isEqualTo("system");
                assertThat(without.at("/messages/0/role").asText()).isEqualTo("user");
            } else {
                assertThat(without.at(at).isMissingNode())
                        .as(without.toString())
                        .isTrue();
            }
            assertThat(without.toString()).doesNotContain("pirate");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aStallAfterTheFirstEventsIsAStalledStreamNotAnAnswer(Format format) {
        try (WireFixture fixture = fixtureFor(format)) {
            String first = firstEvents(format.stream());
            fixture.enqueue(new MockResponse.Builder()
                    .addHeader("Content-Type", "text/event-stream")
                    .body(format.stream())
                    .throttleBody(first.length(), 5, TimeUnit.SECONDS)
                    .build());

            AssistantMessage message = fixture.stream(request(fixture, format, new TimeoutSettings(1_000, 1_000, 300)))
                    .message();

            assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
            assertThat(message.failure().kind()).isEqualTo(FailureKind.TIMEOUT);
            assertThat(message.errorMessage()).startsWith("Stream stalled: no data for 300 ms (timeouts.idleMs)");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aStreamCutAfterItsFirstEventsIsNeverTakenAsTheAnswer(Format format) {
        try (WireFixture fixture = fixtureFor(format)) {
            fixture.enqueue(stream(firstEvents(format.stream())));

            AssistantMessage message =
                    fixture.stream(request(fixture, format, WireFixture.QUICK)).message();

            assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
            assertThat(message.failure().kind()).isEqualTo(FailureKind.TRUNCATED);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void anAbortEndsAWaitingCallAtOnce(Format format) {
        try (WireFixture fixture = fixtureFor(format)) {
            fixture.enqueue(new MockResponse.Builder()
                    .addHeader("Content-Type", "text/event-stream")
                    .headersDelay(5, TimeUnit.SECONDS)
                    .body(format.stream())
                    .build());
            CallControl control = new CallControl();
            Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(150);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                control.abort();
            });
            long started = System.nanoTime();

            AssistantMessage message = fixture.stream(
                            request(fixture, format, new TimeoutSettings(1_000, 10_000, 10_000)), control)
                    .message();

            assertThat(message.stopReason()).isEqualTo(StopReason.ABORTED);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                    .isLessThan(2_000);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aPortWhereNothingListensIsATransportFailureNamingIt(Format format) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (WireFixture fixture = fixtureFor(format)) {
            ProviderConfig config = fixture.config("http://127.0.0.1:" + port + format.path(), format.model());

            AssistantMessage message =
                    fixture.stream(fixture.request(config, format.model())).message();

            assertThat(message.failure().kind()).isEqualTo(FailureKind.TRANSPORT);
            assertThat(message.errorMessage()).contains("127.0.0.1:" + port);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aRequestLostOnAConnectionClosedWhileIdleIsSentAgainInvisibly(Format format) throws Exception {
        try (WireFixture fixture = fixtureFor(format)) {
            fixture.enqueue(stream(format.stream())
                    .newBuilder()
                    .onResponseEnd(SocketEffect.ShutdownConnection.INSTANCE)
                    .build());
            fixture.enqueue(stream(format.stream()));

            fixture.stream(request(fixture, format, WireFixture.QUICK));
            Thread.sleep(200);
            AssistantMessage second =
                    fixture.stream(request(fixture, format, WireFixture.QUICK)).message();

            assertThat(second.stopReason()).as(second.errorMessage()).isEqualTo(StopReason.STOP);
            assertThat(fixture.server.getRequestCount()).isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void anErrorBodyEchoingTheKeyAndTheSecretHeaderShowsNeither(Format format) {
        try (WireFixture fixture = fixtureFor(format)) {
            fixture.enqueue(WireFixture.error(
                    401,
                    "{\"error\":{\"message\":\"Key " + KEY + " with token " + SECRET_HEADER
                            + " is not valid\",\"type\":\"authentication_error\"}}"));

            AssistantMessage message =
                    fixture.stream(request(fixture, format, WireFixture.QUICK)).message();

            assertThat(message.errorMessage())
                    .contains("[redacted]")
                    .doesNotContain(KEY)
                    .doesNotContain(SECRET_HEADER);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aKeyCarriedInAnExtraHeaderGoesThereAndNowhereElse(Format format) throws Exception {
        try (WireFixture fixture = fixtureFor(format)) {
            fixture.enqueue(stream(format.stream()));
            ProviderConfig config = fixture.config(fixture.baseUrl(format.path()), format.model())
                    .withHeaders(Map.of("api-key", ConfigValue.fromCredential()));

            fixture.stream(fixture.request(config, format.model()));

            mockwebserver3.RecordedRequest request = fixture.takeRequest();
            assertThat(request.getHeaders().get("api-key")).isEqualTo(KEY);
            assertThat(request.getHeaders().get("Authorization")).isNull();
            assertThat(request.getHeaders().get("x-api-key")).isNull();
            assertThat(request.getHeaders().get("x-goog-api-key")).isNull();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aKeyHeaderWithNoKeyConfiguredIsAConfigurationErrorSayingWhatToAdd(Format format) {
        try (WireFixture fixture = fixtureFor(format)) {
            ProviderConfig config = fixture.config(fixture.baseUrl(format.path()), format.model())
                    .withHeaders(Map.of("api-key", ConfigValue.fromCredential()));
            ProviderRequest keyless = new ProviderRequest(
                    "a1",
                    config,
                    new dev.rebound.transcript.ModelRef(config.key(), format.model()),
                    java.util.List.of(new dev.rebound.transcript.UserMessage("u1", "hi", 1)),
                    null,
                    WireFixture.QUICK);

            AssistantMessage message = fixture.stream(keyless).message();

            assertThat(message.failure().kind()).isEqualTo(FailureKind.CONFIGURATION);
            assertThat(message.errorMessage()).contains("({\"credential\": true}), but it has no key");
            assertThat(fixture.server.getRequestCount()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aKeyThatCannotGoInAHeaderIsAConfigurationErrorNamingItsLabelNeverItsValue(Format format) {
        try (WireFixture fixture = new WireFixture(format.wire(), format.api(), "sk-copied-0123456789\r\n", Map.of())) {
            ProviderConfig config = fixture.config(fixture.baseUrl(format.path()), format.model());

            AssistantMessage message =
                    fixture.stream(fixture.request(config, format.model())).message();

            assertThat(message.failure().kind()).isEqualTo(FailureKind.CONFIGURATION);
            assertThat(message.errorMessage())
                    .contains("The key 'work'")
                    .contains("cannot go in an HTTP header")
                    .doesNotContain("sk-copied");
            assertThat(fixture.server.getRequestCount()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aRedirectLoopAndOversizedHeadersSayWhatTheyAreAndAreNotRetried(Format format) {
        try (WireFixture fixture = fixtureFor(format)) {
            String loop = fixture.baseUrl("/loop");
            for (int i = 0; i < 25; i++) {
                fixture.enqueue(new MockResponse.Builder()
                        .code(302)
                        .addHeader("Location", loop)
                        .build());
            }

            AssistantMessage redirected =
                    fixture.stream(request(fixture, format, WireFixture.QUICK)).message();

            assertThat(redirected.failure().kind())
                    .as(redirected.errorMessage())
                    .isEqualTo(FailureKind.PROTOCOL);
            assertThat(redirected.errorMessage()).contains("redirected the request (302 Found to " + loop);
            assertThat(fixture.server.getRequestCount())
                    .as("answered at the first 302, not followed")
                    .isEqualTo(1);
        }
        try (WireFixture fixture = fixtureFor(format)) {
            fixture.enqueue(new MockResponse.Builder()
                    .addHeader("X-Huge", "x".repeat(300 * 1024))
                    .body("{}")
                    .build());

            AssistantMessage huge =
                    fixture.stream(request(fixture, format, WireFixture.QUICK)).message();

            assertThat(huge.failure().kind()).as(huge.errorMessage()).isEqualTo(FailureKind.PROTOCOL);
            assertThat(huge.errorMessage()).contains("response header line longer than 256 KiB");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void afterAServerThatNeverAnsweredTheNextCallIsAnsweredNormally(Format format) {
        try (WireFixture fixture = fixtureFor(format)) {
            fixture.enqueue(new MockResponse.Builder()
                    .headersDelay(5, TimeUnit.SECONDS)
                    .body(format.stream())
                    .build());
            fixture.enqueue(stream(format.stream()));

            AssistantMessage timedOut = fixture.stream(request(fixture, format, new TimeoutSettings(1_000, 300, 1_000)))
                    .message();
            AssistantMessage next =
                    fixture.stream(request(fixture, format, WireFixture.QUICK)).message();

            assertThat(timedOut.failure().kind()).isEqualTo(FailureKind.TIMEOUT);
            assertThat(next.stopReason()).as(next.errorMessage()).isEqualTo(StopReason.STOP);
        }
    }
}
