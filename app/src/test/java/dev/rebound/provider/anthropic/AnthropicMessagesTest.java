package dev.rebound.provider.anthropic;

import static dev.rebound.provider.WireFixture.error;
import static dev.rebound.provider.WireFixture.eventStream;
import static dev.rebound.provider.WireFixture.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.event.ErrorKind;
import dev.rebound.json.Json;
import dev.rebound.provider.CallControl;
import dev.rebound.provider.WireFixture;
import dev.rebound.retry.Classification;
import dev.rebound.retry.ClassifierInput;
import dev.rebound.retry.ErrorClassifier;
import dev.rebound.retry.RetryHint;
import dev.rebound.retry.RetryHints;
import dev.rebound.settings.ConfigValue;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.TimeoutSettings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import dev.rebound.transcript.UserMessage;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Anthropic Messages provider against recorded streams and error bodies of the real API
 * ({@code src/test/resources/fixtures/anthropic/}, sources in its {@code SOURCES.md}).
 */
class AnthropicMessagesTest {
    private static final String KEY = "sk-ant-api03-test-0123456789abcdef";
    private static final String MODEL = "claude-sonnet-4-5";

    private final WireFixture fixture = new WireFixture(
            new AnthropicMessagesWire(), ProviderApi.ANTHROPIC_MESSAGES, KEY, Map.of("ANTHROPIC_BETA_FLAGS", "x"));
    private final ErrorClassifier classifier = new ErrorClassifier();

    @AfterEach
    void close() {
        fixture.close();
    }

    private ProviderConfig config() {
        return fixture.config(fixture.baseUrl("/"), MODEL);
    }

    private WireFixture.Result stream() {
        return fixture.stream(fixture.request(config(), MODEL));
    }

    private Classification classify(AssistantMessage message) {
        return classifier.classify(new ClassifierInput(message, message.api(), false));
    }

    @Test
    void aTextReplyStreamsItsDeltasAndEndsWithTheUsageOfStartAndDelta() {
        fixture.enqueue(eventStream(fixture("anthropic/stream-text.sse")));

        WireFixture.Result result = stream();

        AssistantMessage message = result.message();
        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.api()).isEqualTo("anthropic-messages");
        assertThat(message.text()).isNotBlank().isEqualTo(result.recorder().text());
        assertThat(result.recorder().events).hasSizeGreaterThan(1);
        assertThat(message.usage().inputTokens()).isPositive();
        assertThat(message.usage().outputTokens()).isPositive();
        assertThat(classify(message).verdict()).isEqualTo(Classification.Verdict.NOT_AN_ERROR);
    }

    @Test
    void theRequestGoesToV1MessagesWithTheKeyInXApiKeyTheVersionAndACacheMarkOnTheLastUserMessage() throws Exception {
        fixture.enqueue(eventStream(fixture("anthropic/stream-text.sse")));
        List<dev.rebound.transcript.ChatMessage> context = List.of(
                new UserMessage("u1", "First question", 1),
                assistantSaid("a0", "First answer"),
                new UserMessage("u2", "Second question", 3));

        fixture.stream(fixture.request(config(), MODEL, context));

        RecordedRequest request = fixture.takeRequest();
        assertThat(request.getUrl().encodedPath()).isEqualTo("/v1/messages");
        assertThat(request.getHeaders().get("x-api-key")).isEqualTo(KEY);
        assertThat(request.getHeaders().get("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(request.getHeaders().get("Authorization")).isNull();
        JsonNode body = Json.newMapper().readTree(request.getBody().utf8());
        assertThat(body.get("model").asText()).isEqualTo(MODEL);
        assertThat(body.get("stream").asBoolean()).isTrue();
        assertThat(body.get("max_tokens").asInt()).isPositive();
        assertThat(body.get("messages")).hasSize(3);
        assertThat(body.at("/messages/1/role").asText()).isEqualTo("assistant");
        assertThat(body.at("/messages/1/content/0/text").asText()).isEqualTo("First answer");
        assertThat(body.at("/messages/2/content/0/cache_control/type").asText()).isEqualTo("ephemeral");
        assertThat(body.at("/messages/0/content/0/cache_control").isMissingNode())
                .isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"/v1", "/v1/"})
    void aBaseUrlThatAlreadyEndsInV1IsNotVersionedTwiceAndExtraHeadersReplaceDefaults(String path) throws Exception {
        fixture.enqueue(eventStream(fixture("anthropic/stream-text.sse")));
        ProviderConfig config = fixture.config(fixture.baseUrl(path), MODEL)
                .withHeaders(Map.of(
                        "anthropic-beta", ConfigValue.fromEnv("ANTHROPIC_BETA_FLAGS"),
                        "anthropic-version", ConfigValue.of("2024-01-01")));

        fixture.stream(fixture.request(config, MODEL));

        RecordedRequest request = fixture.takeRequest();
        assertThat(request.getUrl().encodedPath()).isEqualTo("/v1/messages");
        assertThat(request.getHeaders().get("anthropic-beta")).isEqualTo("x");
        assertThat(request.getHeaders().get("anthropic-version")).isEqualTo("2024-01-01");
    }

    @Test
    void thinkingStreamsAsThinkingBeforeTheTextAndSignaturesAreNotShown() {
        fixture.enqueue(eventStream(fixture("anthropic/stream-thinking.sse")));

        WireFixture.Result result = stream();

        AssistantMessage message = result.message();
        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.content()).hasSize(2);
        assertThat(message.content().get(0)).isInstanceOf(ContentBlock.Thinking.class);
        assertThat(((ContentBlock.Thinking) message.content().get(0)).thinking())
                .startsWith("The user is asking for")
                .doesNotContain("EsQDCkYICBgC");
        assertThat(message.content().get(1)).isInstanceOf(ContentBlock.Text.class);
        assertThat(result.recorder().events.getFirst()).startsWith("thinking:");
    }

    @Test
    void aRedactedThinkingBlockIsKeptAsRedactedAndCountsAsObservableOutput() {
        fixture.enqueue(eventStream(fixture("anthropic/stream-thinking-redacted.sse")));

        AssistantMessage message = stream().message();

        assertThat(message.content()).anySatisfy(b -> assertThat(b).isEqualTo(new ContentBlock.Thinking("", true)));
        assertThat(message.hasObservableOutput()).isTrue();
    }

    @Test
    void anOverloadedErrorAfterMessageStartIsAStreamErrorThatRetries() {
        fixture.enqueue(eventStream(fixture("anthropic/stream-overloaded-midstream-before-content.sse")));

        AssistantMessage message = stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.STREAM_ERROR);
        assertThat(message.failure().errorType()).isEqualTo("overloaded_error");
        assertThat(message.errorMessage())
                .isEqualTo("The provider reported an error mid-stream: Overloaded (type: overloaded_error)");
        assertThat(classify(message).kind()).isEqualTo(ErrorKind.TRANSIENT);
    }

    @Test
    void anErrorBeforeMessageStartIsAnEnvelopeFailureAndTransient() {
        fixture.enqueue(eventStream(fixture("anthropic/stream-envelope-error.sse")));

        AssistantMessage message = stream().message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.ENVELOPE);
        assertThat(message.errorMessage())
                .isEqualTo(
                        "The provider reported an error before the reply began: Overloaded (type: overloaded_error)");
        assertThat(classify(message).kind()).isEqualTo(ErrorKind.TRANSIENT);
    }

    @Test
    void anEnvelopeFailureOfAnUnknownTypeIsStillTransientButABadRequestOneIsNot() {
        fixture.enqueue(eventStream("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"edge_hiccup\","
                + "\"message\":\"Something odd\"}}\n\n"));
        fixture.enqueue(eventStream("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":"
                + "\"invalid_request_error\",\"message\":\"messages: at least one message is required\"}}\n\n"));

        AssistantMessage unknown = stream().message();
        AssistantMessage badRequest = stream().message();

        assertThat(unknown.failure().kind()).isEqualTo(FailureKind.ENVELOPE);
        assertThat(classify(unknown).kind()).isEqualTo(ErrorKind.TRANSIENT);
        assertThat(classify(badRequest).verdict()).isEqualTo(Classification.Verdict.TERMINAL);
    }

    @Test
    void anOverloadedErrorAfterTextKeepsTheTextAndIsNotReplayed() {
        fixture.enqueue(eventStream(fixture("anthropic/stream-overloaded-after-content.sse")));

        AssistantMessage message = stream().message();

        assertThat(message.text()).isNotEmpty();
        assertThat(message.failure().kind()).isEqualTo(FailureKind.STREAM_ERROR);
        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT);
        assertThat(classify(message).verdict()).isEqualTo(Classification.Verdict.TERMINAL);
        assertThat(classify(message).rule()).isEqualTo("observable-output");
    }

    @Test
    void aRefusalStopReasonIsAStructuredRefusalWithTheProvidersExplanation() {
        fixture.enqueue(eventStream(fixture("anthropic/stream-refusal.sse")));

        AssistantMessage message = stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure()).isNull();
        assertThat(message.stopDetails())
                .isEqualTo(new StopDetails(StopDetails.REFUSAL, "This request was refused due to policy."));
        assertThat(message.errorMessage())
                .isEqualTo("The model refused to answer: This request was refused due to policy.");
        assertThat(classify(message).kind()).isEqualTo(ErrorKind.REFUSAL);
    }

    @Test
    void aRefusalAfterPartialTextKeepsTheTextAndIsStillARefusal() {
        fixture.enqueue(eventStream(fixture("anthropic/stream-refusal-partial-text.sse")));

        AssistantMessage message = stream().message();

        assertThat(message.text()).isNotEmpty();
        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.REFUSAL);
        assertThat(message.errorMessage()).isEqualTo("The model refused to answer (stop_reason: refusal)");
        assertThat(classify(message).kind()).isEqualTo(ErrorKind.REFUSAL);
    }

    @Test
    void maxTokensEndsAsLength() {
        fixture.enqueue(eventStream(fixture("anthropic/stream-max-tokens.sse")));

        assertThat(stream().message().stopReason()).isEqualTo(StopReason.LENGTH);
    }

    @Test
    void aStreamCutBeforeItsStopIsTruncatedAndSaysWhatWasMissing() {
        String whole = fixture("anthropic/stream-text.sse");
        fixture.enqueue(eventStream(whole.substring(0, whole.indexOf("event: message_delta"))));

        AssistantMessage message = stream().message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.TRUNCATED);
        assertThat(message.errorMessage()).contains("(no stop_reason or message_stop received)");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "529, error-529-overloaded_error.json, overloaded_error, RETRY, transient",
        "500, error-500-api_error.json, api_error, RETRY, transient",
        "500, error-500-api_error-overloaded-null-request-id.json, api_error, RETRY, transient",
        "429, error-429-rate_limit_error.json, rate_limit_error, RETRY, rate_limit",
        "401, error-401-authentication_error.json, authentication_error, TERMINAL, ",
        "403, error-403-permission_error.json, permission_error, TERMINAL, ",
        "403, error-403-forbidden-request-not-allowed.json, forbidden, TERMINAL, ",
        "404, error-404-not_found_error.json, not_found_error, TERMINAL, ",
        "413, error-413-request_too_large.json, request_too_large, TERMINAL, ",
        "400, error-400-invalid_request_error.json, invalid_request_error, TERMINAL, ",
        "400, error-400-invalid_request_error-prompt-too-long.json, invalid_request_error, CONTEXT_OVERFLOW, ",
    })
    void everyRecordedErrorBodyIsReadAndClassified(
            int status, String file, String type, Classification.Verdict verdict, String kind) {
        fixture.enqueue(error(status, fixture("anthropic/" + file)));

        AssistantMessage message = stream().message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.HTTP);
        assertThat(message.failure().httpStatus()).isEqualTo(status);
        assertThat(message.failure().errorType()).isEqualTo(type);
        assertThat(message.errorMessage()).startsWith(status + " ").contains("(type: " + type + ")");
        Classification verdictOf = classify(message);
        assertThat(verdictOf.verdict()).as(verdictOf.rule()).isEqualTo(verdict);
        if (kind != null) {
            assertThat(verdictOf.kind().toString()).isEqualTo(kind);
        }
    }

    @Test
    void aCreditBalanceBadRequestIsAUsageLimitNotABadRequest() {
        fixture.enqueue(error(400, fixture("anthropic/error-400-invalid_request_error-credit-balance.json")));

        Classification verdict = classify(stream().message());

        assertThat(verdict.kind()).isEqualTo(ErrorKind.USAGE_LIMIT);
    }

    @Test
    void aRecorded429KeepsItsRequestIdAndRateLimitHeadersAndItsRetryAfterIsTheHint() {
        fixture.enqueue(WireFixture.withHeaders(new MockResponse.Builder().code(429), "anthropic/headers-429.txt")
                .body(fixture("anthropic/error-429-rate_limit_error.json"))
                .build());

        AssistantMessage message = stream().message();

        assertThat(message.failure().header("request-id")).isEqualTo("req_011CYYc3J1X8TQSFat6bg7VX");
        assertThat(message.failure().header("anthropic-ratelimit-input-tokens-remaining"))
                .isEqualTo("0");
        assertThat(message.failure().header("x-should-retry")).isEqualTo("true");
        Clock beforeReset = Clock.fixed(Instant.parse("2026-02-27T12:52:07Z"), ZoneOffset.UTC);
        assertThat(new RetryHints(beforeReset).parse(message.failure(), message.errorMessage()))
                .contains(new RetryHint(58_000, "retry-after"));
    }

    @Test
    void anthropicResetHeadersAreTheHintWhenThereIsNoRetryAfterAndAnUntouchedBucketIsIgnored() {
        fixture.enqueue(WireFixture.withHeaders(new MockResponse.Builder().code(429), "anthropic/headers-429.txt")
                .removeHeader("retry-after")
                .body(fixture("anthropic/error-429-rate_limit_error.json"))
                .build());

        AssistantMessage message = stream().message();

        Clock beforeReset = Clock.fixed(Instant.parse("2026-02-27T12:52:07Z"), ZoneOffset.UTC);
        RetryHint hint = new RetryHints(beforeReset)
                .parse(message.failure(), message.errorMessage())
                .orElseThrow();
        assertThat(hint.delayMs()).isEqualTo(78_000);
        assertThat(hint.source()).startsWith("anthropic-ratelimit-");
    }

    @Test
    void xShouldRetryFalseMakesAnOverloadTerminal() {
        fixture.enqueue(new MockResponse.Builder()
                .code(529)
                .addHeader("x-should-retry", "false")
                .body(fixture("anthropic/error-529-overloaded_error.json"))
                .build());

        assertThat(classify(stream().message()).verdict()).isEqualTo(Classification.Verdict.TERMINAL);
    }

    @Test
    void aStallAfterMessageStartTimesOutAndAnAbortEndsTheCallAtOnce() throws Exception {
        String start = fixture("anthropic/stream-text.sse");
        String firstEvent = start.substring(0, start.indexOf("\n\n") + 2);
        fixture.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .body(firstEvent + "event: ping\ndata: {\"type\": \"ping\"}\n\n")
                .throttleBody(firstEvent.length(), 5, TimeUnit.SECONDS)
                .build());
        fixture.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .body(firstEvent + "event: ping\ndata: {\"type\": \"ping\"}\n\n")
                .throttleBody(firstEvent.length(), 5, TimeUnit.SECONDS)
                .build());

        AssistantMessage stalled = fixture.stream(
                        fixture.request(config(), MODEL).withTimeouts(new TimeoutSettings(1_000, 1_000, 300)))
                .message();
        CallControl control = new CallControl();
        Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            control.abort();
        });
        long started = System.nanoTime();
        AssistantMessage aborted =
                fixture.stream(fixture.request(config(), MODEL), control).message();

        assertThat(stalled.failure().kind()).isEqualTo(FailureKind.TIMEOUT);
        assertThat(stalled.errorMessage()).startsWith("Stream stalled: no data for 300 ms");
        assertThat(aborted.stopReason()).isEqualTo(StopReason.ABORTED);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(1_400);
    }

    private static AssistantMessage assistantSaid(String id, String text) {
        return new AssistantMessage(
                id,
                List.of(new ContentBlock.Text(text)),
                "p",
                MODEL,
                "anthropic-messages",
                null,
                Usage.NONE,
                StopReason.STOP,
                null,
                null,
                null,
                2);
    }

    @Test
    void aModelWithASmallerOutputLimitIsAskedAgainAtOnceWithItsOwnMaximumAndKeepsIt() throws Exception {
        // The wording of Anthropic's 400 for max_tokens over a model's limit (fixture
        // error-400-invalid_request_error.json), with claude-3-haiku's 4,096.
        fixture.enqueue(error(
                400,
                "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"max_tokens: "
                        + "8192 > 4096, which is the maximum allowed number of output tokens for "
                        + "claude-3-haiku-20240307\"}}"));
        fixture.enqueue(eventStream(fixture("anthropic/stream-text.sse")));
        fixture.enqueue(eventStream(fixture("anthropic/stream-text.sse")));
        ProviderConfig config = fixture.config(fixture.baseUrl("/"), "claude-3-haiku-20240307");

        AssistantMessage first = fixture.stream(fixture.request(config, "claude-3-haiku-20240307"))
                .message();
        fixture.stream(fixture.request(config, "claude-3-haiku-20240307"));

        assertThat(first.stopReason()).as(first.errorMessage()).isEqualTo(StopReason.STOP);
        assertThat(Json.newMapper()
                        .readTree(fixture.takeRequest().getBody().utf8())
                        .get("max_tokens")
                        .asInt())
                .isEqualTo(8192);
        assertThat(Json.newMapper()
                        .readTree(fixture.takeRequest().getBody().utf8())
                        .get("max_tokens")
                        .asInt())
                .isEqualTo(4096);
        assertThat(Json.newMapper()
                        .readTree(fixture.takeRequest().getBody().utf8())
                        .get("max_tokens")
                        .asInt())
                .isEqualTo(4096);
    }

    @Test
    void usageIsMergedFromMessageStartAndTheCumulativeMessageDelta() {
        fixture.enqueue(eventStream("""
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],\
                "model":"claude-sonnet-4-5","usage":{"input_tokens":25,"cache_creation_input_tokens":100,\
                "cache_read_input_tokens":2000,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":42}}

                event: message_stop
                data: {"type":"message_stop"}

                """));

        AssistantMessage message = stream().message();

        assertThat(message.usage()).isEqualTo(new Usage(25, 42, 2000, 100));
    }
}
