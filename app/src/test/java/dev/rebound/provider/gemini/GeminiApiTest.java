package dev.rebound.provider.gemini;

import static dev.rebound.provider.WireFixture.error;
import static dev.rebound.provider.WireFixture.eventStream;
import static dev.rebound.provider.WireFixture.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.event.ErrorKind;
import dev.rebound.json.Json;
import dev.rebound.provider.WireFixture;
import dev.rebound.retry.Classification;
import dev.rebound.retry.ClassifierInput;
import dev.rebound.retry.ErrorClassifier;
import dev.rebound.retry.RetryHints;
import dev.rebound.retry.UsageLimitReason;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import java.util.Map;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Gemini provider against recorded streams and error bodies ({@code src/test/resources/fixtures/gemini/}, sources
 * in its {@code SOURCES.md}).
 */
class GeminiApiTest {
    private static final String KEY = "AIzaSyTest0123456789abcdefghijklmnop";
    private static final String MODEL = "gemini-2.5-flash";

    private final WireFixture fixture = new WireFixture(new GeminiWire(), ProviderApi.GOOGLE_GEMINI, KEY, Map.of());
    private final ErrorClassifier classifier = new ErrorClassifier();

    @AfterEach
    void close() {
        fixture.close();
    }

    private WireFixture.Result stream(String baseUrlPath, String model) {
        ProviderConfig config = fixture.config(fixture.baseUrl(baseUrlPath), model);
        return fixture.stream(fixture.request(config, model));
    }

    private AssistantMessage message() {
        return stream("/", MODEL).message();
    }

    private Classification classify(AssistantMessage message) {
        return classifier.classify(new ClassifierInput(message, message.api(), false));
    }

    @Test
    void aTextReplyStreamsAndTheKeyGoesInAHeaderNeverInTheUrl() throws Exception {
        fixture.enqueue(eventStream(fixture("gemini/stream-text.sse")));

        WireFixture.Result result = stream("/", MODEL);

        AssistantMessage message = result.message();
        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.api()).isEqualTo("google-gemini");
        assertThat(message.text()).isNotBlank().isEqualTo(result.recorder().text());
        assertThat(message.usage().inputTokens()).isPositive();
        RecordedRequest request = fixture.takeRequest();
        assertThat(request.getUrl().encodedPath()).isEqualTo("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
        assertThat(request.getUrl().queryParameter("alt")).isEqualTo("sse");
        assertThat(request.getUrl().toString()).doesNotContain(KEY);
        assertThat(request.getHeaders().get("x-goog-api-key")).isEqualTo(KEY);
        JsonNode body = Json.newMapper().readTree(request.getBody().utf8());
        assertThat(body.at("/contents/0/role").asText()).isEqualTo("user");
        assertThat(body.at("/contents/0/parts/0/text").asText()).isEqualTo("Say hello");
        assertThat(body.at("/generationConfig/thinkingConfig/includeThoughts").asBoolean())
                .isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/v1beta", "/v1beta/", "/v1"})
    void aBaseUrlThatNamesAVersionKeepsItAndAnOlderModelIsNotAskedForThoughts(String path) throws Exception {
        fixture.enqueue(eventStream(fixture("gemini/stream-text.sse")));

        stream(path, "models/gemini-2.0-flash");

        RecordedRequest request = fixture.takeRequest();
        String version = path.replace("/", "");
        assertThat(request.getUrl().encodedPath())
                .isEqualTo("/" + version + "/models/gemini-2.0-flash:streamGenerateContent");
        JsonNode body = Json.newMapper().readTree(request.getBody().utf8());
        assertThat(body.has("generationConfig")).isFalse();
    }

    @Test
    void thoughtPartsStreamAsThinkingBeforeTheText() {
        fixture.enqueue(eventStream(fixture("gemini/stream-thinking.sse")));

        WireFixture.Result result = stream("/", MODEL);

        AssistantMessage message = result.message();
        assertThat(message.content().getFirst()).isInstanceOf(ContentBlock.Thinking.class);
        assertThat(message.content().getLast()).isInstanceOf(ContentBlock.Text.class);
        assertThat(message.text()).contains("strawberry");
        assertThat(message.usage().outputTokens())
                .as("thought tokens count as output")
                .isGreaterThan(400);
    }

    @Test
    void aThoughtSignatureOnAnEmptyPartChangesNothing() {
        fixture.enqueue(eventStream(fixture("gemini/stream-thinking-signature.sse")));

        AssistantMessage message = message();

        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.text()).isNotBlank();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "stream-safety.sse, SAFETY",
        "stream-recitation.sse, RECITATION",
    })
    void aSafetyOrRecitationFinishIsARefusal(String file, String reason) {
        fixture.enqueue(eventStream(fixture("gemini/" + file)));

        AssistantMessage message = message();

        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.REFUSAL);
        assertThat(message.stopDetails().explanation()).startsWith("finishReason: " + reason);
        assertThat(message.failure()).isNull();
        assertThat(classify(message).kind()).isEqualTo(ErrorKind.REFUSAL);
    }

    @Test
    void aSafetyFinishNamesTheBlockedCategory() {
        fixture.enqueue(eventStream(fixture("gemini/stream-safety.sse")));

        assertThat(message().errorMessage()).contains("HARM_CATEGORY_SEXUALLY_EXPLICIT");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"stream-prompt-blocked.sse, PROHIBITED_CONTENT", "stream-prompt-blocked-safety.sse, SAFETY"})
    void aBlockedPromptIsARefusal(String file, String reason) {
        fixture.enqueue(eventStream(fixture("gemini/" + file)));

        AssistantMessage message = message();

        assertThat(message.errorMessage())
                .isEqualTo("The provider blocked the prompt (promptFeedback.blockReason: " + reason + ")");
        assertThat(classify(message).kind()).isEqualTo(ErrorKind.REFUSAL);
    }

    @Test
    void maxTokensEndsAsLength() {
        fixture.enqueue(eventStream(fixture("gemini/stream-max-tokens.sse")));

        assertThat(message().stopReason()).isEqualTo(StopReason.LENGTH);
    }

    @Test
    void anErrorObjectAfterTextKeepsTheTextAndIsNotReplayed() {
        fixture.enqueue(eventStream(fixture("gemini/stream-error-midstream.sse")));

        AssistantMessage message = message();

        assertThat(message.text()).startsWith("A monad is");
        assertThat(message.failure().kind()).isEqualTo(FailureKind.STREAM_ERROR);
        assertThat(message.failure().errorType()).isEqualTo("UNAVAILABLE");
        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT);
        assertThat(classify(message).rule()).isEqualTo("observable-output");
    }

    @Test
    void anOverloadErrorObjectBeforeAnyTextRetries() {
        fixture.enqueue(eventStream("data: {\"error\": {\"code\": 503,\"message\": \"The model is overloaded. Please "
                + "try again later.\",\"status\": \"UNAVAILABLE\"}}\r\n\r\n"));

        assertThat(classify(message()).kind()).isEqualTo(ErrorKind.TRANSIENT);
    }

    @Test
    void aStreamThatStopsWithoutAFinishReasonIsTruncated() {
        String whole = fixture("gemini/stream-text.sse");
        fixture.enqueue(eventStream(whole.substring(0, whole.lastIndexOf("data: "))));

        AssistantMessage message = message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.TRUNCATED);
        assertThat(message.errorMessage()).contains("(no finishReason received)");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "503, error-503-UNAVAILABLE.json, UNAVAILABLE, RETRY, transient",
        "503, error-503-UNAVAILABLE-high-demand.json, UNAVAILABLE, RETRY, transient",
        "500, error-500-INTERNAL.json, INTERNAL, RETRY, transient",
        "429, error-429-RESOURCE_EXHAUSTED-per-minute.json, RESOURCE_EXHAUSTED, RETRY, usage_limit",
        "429, error-429-RESOURCE_EXHAUSTED-per-day.json, RESOURCE_EXHAUSTED, RETRY, usage_limit",
        "429, error-429-RESOURCE_EXHAUSTED-per-day-and-minute.json, RESOURCE_EXHAUSTED, RETRY, usage_limit",
        "400, error-400-INVALID_ARGUMENT-api-key.json, INVALID_ARGUMENT, TERMINAL, ",
        "400, error-400-INVALID_ARGUMENT-context-too-long.json, INVALID_ARGUMENT, CONTEXT_OVERFLOW, ",
        "403, error-403-PERMISSION_DENIED.json, PERMISSION_DENIED, TERMINAL, ",
        "404, error-404-NOT_FOUND.json, NOT_FOUND, TERMINAL, ",
    })
    void everyRecordedErrorBodyIsReadAndClassified(
            int status, String file, String type, Classification.Verdict verdict, String kind) {
        fixture.enqueue(error(status, fixture("gemini/" + file)));

        AssistantMessage message = message();

        assertThat(message.failure().httpStatus()).isEqualTo(status);
        assertThat(message.failure().errorType()).isEqualTo(type);
        Classification c = classify(message);
        assertThat(c.verdict()).as(c.rule()).isEqualTo(verdict);
        if (kind != null) {
            assertThat(c.kind().toString()).isEqualTo(kind);
        }
    }

    @Test
    void aPerMinuteQuotaIsAPerMinuteLimitThatWaitsForItsRetryInfoDelay() {
        fixture.enqueue(error(429, fixture("gemini/error-429-RESOURCE_EXHAUSTED-per-minute.json")));

        AssistantMessage message = message();

        assertThat(message.errorMessage()).contains("quota: GenerateRequestsPerMinute");
        assertThat(classify(message).usageLimitReason()).isEqualTo(UsageLimitReason.PER_MINUTE);
        assertThat(new RetryHints(WireFixture.CLOCK).parse(message.failure(), message.errorMessage()))
                .hasValueSatisfying(h -> assertThat(h.delayMs()).isBetween(1_000L, 120_000L));
    }

    @Test
    void aPerDayQuotaIsADailyUsageLimitWhateverItsShortRetryDelay() {
        fixture.enqueue(error(429, fixture("gemini/error-429-RESOURCE_EXHAUSTED-per-day.json")));

        Classification c = classify(message());

        assertThat(c.kind()).isEqualTo(ErrorKind.USAGE_LIMIT);
        assertThat(c.usageLimitReason()).isEqualTo(UsageLimitReason.QUOTA);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "error-429-RESOURCE_EXHAUSTED-per-day.json",
                "error-429-RESOURCE_EXHAUSTED-per-day-and-minute.json"
            })
    void aPerDayQuotaWaitsUntilMidnightPacificNotForItsShortRetryDelay(String file) {
        fixture.enqueue(error(429, fixture("gemini/" + file)));

        AssistantMessage message = message();

        // 2026-12-01T10:00Z is 02:00 in Los Angeles (PST): the quota is back at 08:00Z the next day.
        assertThat(new RetryHints(WireFixture.CLOCK).parse(message.failure(), message.errorMessage()))
                .contains(new dev.rebound.retry.RetryHint(22 * 3_600_000L, "quota:per-day"));
    }
}
