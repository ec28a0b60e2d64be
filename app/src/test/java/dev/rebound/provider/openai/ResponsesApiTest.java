package dev.rebound.provider.openai;

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

/**
 * The OpenAI Responses provider against recorded streams and error bodies ({@code
 * src/test/resources/fixtures/openai-responses/}, sources in its {@code SOURCES.md}).
 */
class ResponsesApiTest {
    private static final String KEY = "sk-proj-test-0123456789abcdefghij";

    private final WireFixture fixture =
            new WireFixture(new ResponsesWire(), ProviderApi.OPENAI_RESPONSES, KEY, Map.of());
    private final ErrorClassifier classifier = new ErrorClassifier();

    @AfterEach
    void close() {
        fixture.close();
    }

    private WireFixture.Result stream(String model) {
        ProviderConfig config = fixture.config(fixture.baseUrl("/v1"), model);
        return fixture.stream(fixture.request(config, model));
    }

    private AssistantMessage message() {
        return stream("gpt-4.1").message();
    }

    private Classification classify(AssistantMessage message) {
        return classifier.classify(new ClassifierInput(message, message.api(), false));
    }

    @Test
    void aTextReplyStreamsItsDeltasAndReadsUsageFromResponseCompleted() throws Exception {
        fixture.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));

        WireFixture.Result result = stream("gpt-4.1");

        AssistantMessage message = result.message();
        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.api()).isEqualTo("openai-responses");
        assertThat(message.text()).isNotBlank().isEqualTo(result.recorder().text());
        assertThat(message.usage().outputTokens()).isPositive();
        RecordedRequest request = fixture.takeRequest();
        assertThat(request.getUrl().encodedPath()).isEqualTo("/v1/responses");
        assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + KEY);
        JsonNode body = Json.newMapper().readTree(request.getBody().utf8());
        assertThat(body.get("stream").asBoolean()).isTrue();
        assertThat(body.get("store").asBoolean()).isTrue();
        assertThat(body.at("/input/0/role").asText()).isEqualTo("user");
        assertThat(body.at("/input/0/content/0/type").asText()).isEqualTo("input_text");
        assertThat(body.has("reasoning"))
                .as("not sent to a model that rejects it")
                .isFalse();
    }

    @Test
    void aReasoningModelIsAskedForASummaryWhichStreamsAsThinkingBeforeTheText() throws Exception {
        fixture.enqueue(eventStream(fixture("openai-responses/stream-reasoning.sse")));

        WireFixture.Result result = stream("o4-mini");

        AssistantMessage message = result.message();
        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.content().getFirst()).isInstanceOf(ContentBlock.Thinking.class);
        assertThat(message.content().getLast()).isInstanceOf(ContentBlock.Text.class);
        assertThat(result.recorder().events.getFirst()).startsWith("thinking:");
        JsonNode body =
                Json.newMapper().readTree(fixture.takeRequest().getBody().utf8());
        assertThat(body.at("/reasoning/summary").asText()).isEqualTo("auto");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "stream-failed-server-error.sse, server_error, TERMINAL, ",
        "stream-failed.sse, rate_limit_exceeded, RETRY, rate_limit",
        "stream-failed-context-window.sse, context_length_exceeded, CONTEXT_OVERFLOW, ",
        "stream-failed-insufficient-quota.sse, insufficient_quota, RETRY, usage_limit",
    })
    void aFailedResponseIsAStreamErrorWithItsCodeAndIsClassifiedByIt(
            String file, String code, Classification.Verdict verdict, String kind) {
        fixture.enqueue(eventStream(fixture("openai-responses/" + file)));

        AssistantMessage message = message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.STREAM_ERROR);
        assertThat(message.failure().errorCode()).isEqualTo(code);
        assertThat(message.errorMessage())
                .startsWith("The provider reported the response as failed (response.failed): ");
        Classification c = classify(message);
        assertThat(c.verdict()).as(c.rule()).isEqualTo(verdict);
        if (kind != null) {
            assertThat(c.kind().toString()).isEqualTo(kind);
        }
    }

    @Test
    void aServerErrorFailureBeforeAnyOutputIsTransient() {
        fixture.enqueue(eventStream("event: response.created\ndata: {\"type\":\"response.created\",\"response\":"
                + "{\"id\":\"resp_1\",\"status\":\"in_progress\"}}\n\nevent: response.failed\ndata: {\"type\":"
                + "\"response.failed\",\"response\":{\"id\":\"resp_1\",\"status\":\"failed\",\"error\":{\"code\":"
                + "\"server_error\",\"message\":\"The model failed to generate a response.\"}}}\n\n"));

        AssistantMessage message = message();

        assertThat(message.errorMessage())
                .isEqualTo("The provider reported the response as failed (response.failed): The model failed to "
                        + "generate a response. (code: server_error)");
        assertThat(classify(message).kind()).isEqualTo(ErrorKind.TRANSIENT);
    }

    @Test
    void aRateLimitedFailedResponseCarriesItsWaitInTheText() {
        fixture.enqueue(eventStream(fixture("openai-responses/stream-failed.sse")));

        AssistantMessage message = message();

        assertThat(new RetryHints(WireFixture.CLOCK).parse(message.failure(), message.errorMessage()))
                .hasValueSatisfying(h -> assertThat(h.delayMs()).isEqualTo(11_054));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "stream-error-event-no-content.sse, RETRY, rate_limit",
        "stream-error-event-flat.sse, TERMINAL, ",
        "stream-error-event-context-length.sse, CONTEXT_OVERFLOW, ",
    })
    void anErrorEventIsAStreamErrorReadNestedOrFlat(String file, Classification.Verdict verdict, String kind) {
        fixture.enqueue(eventStream(fixture("openai-responses/" + file)));

        AssistantMessage message = message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.STREAM_ERROR);
        assertThat(message.errorMessage())
                .startsWith("The provider reported an error mid-stream: ")
                .doesNotContain("{\"type\"");
        Classification c = classify(message);
        assertThat(c.verdict()).as(c.rule()).isEqualTo(verdict);
        if (kind != null) {
            assertThat(c.kind().toString()).isEqualTo(kind);
        }
    }

    @Test
    void aServerErrorAfterTextKeepsTheTextAndIsNotReplayed() {
        fixture.enqueue(eventStream(fixture("openai-responses/stream-error-event.sse")));

        AssistantMessage message = message();

        assertThat(message.text()).isNotEmpty();
        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT);
        assertThat(classify(message).rule()).isEqualTo("observable-output");
    }

    @Test
    void anIncompleteResponseForMaxOutputTokensEndsAsLength() {
        fixture.enqueue(eventStream(fixture("openai-responses/stream-incomplete.sse")));

        assertThat(message().stopReason()).isEqualTo(StopReason.LENGTH);
    }

    @Test
    void anIncompleteResponseForTheContentFilterIsSensitive() {
        fixture.enqueue(eventStream(fixture("openai-responses/stream-incomplete-content-filter.sse")));

        AssistantMessage message = message();

        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.SENSITIVE);
        assertThat(classify(message).kind()).isEqualTo(ErrorKind.REFUSAL);
    }

    @Test
    void aRefusalIsAStructuredRefusalWithItsText() {
        fixture.enqueue(eventStream(fixture("openai-responses/stream-refusal.sse")));

        AssistantMessage message = message();

        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.REFUSAL);
        assertThat(message.errorMessage()).startsWith("The model refused to answer: ");
        assertThat(classify(message).kind()).isEqualTo(ErrorKind.REFUSAL);
    }

    @Test
    void aStreamCutBeforeResponseCompletedIsTruncated() {
        String whole = fixture("openai-responses/stream-text.sse");
        fixture.enqueue(eventStream(whole.substring(0, whole.indexOf("event: response.completed"))));

        AssistantMessage message = message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.TRUNCATED);
        assertThat(message.errorMessage()).contains("(no response.completed received)");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "400, error-400-previous_response_not_found.json, RETRY, stale_replay",
        "404, error-404-item_not_found.json, RETRY, stale_replay",
        "404, error-404-item_not_found-store-false.json, RETRY, stale_replay",
        "400, error-400-unsupported_parameter-zdr.json, RETRY, stale_replay",
        "400, error-400-context_length_exceeded.json, CONTEXT_OVERFLOW, ",
        "401, error-401-invalid_api_key.json, TERMINAL, ",
        "404, error-404-model_not_found.json, TERMINAL, ",
        "429, error-429-rate_limit_exceeded.json, RETRY, rate_limit",
        "429, error-429-rate_limit_exceeded-tpm.json, RETRY, rate_limit",
        "429, error-429-insufficient_quota.json, RETRY, usage_limit",
        "500, error-500-server_error.json, RETRY, transient",
        "503, error-503-server_error.json, RETRY, transient",
    })
    void everyRecordedErrorBodyIsReadAndClassified(
            int status, String file, Classification.Verdict verdict, String kind) {
        fixture.enqueue(error(status, fixture("openai-responses/" + file)));

        AssistantMessage message = message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.HTTP);
        assertThat(message.failure().httpStatus()).isEqualTo(status);
        Classification c = classify(message);
        assertThat(c.verdict()).as(c.rule()).isEqualTo(verdict);
        if (kind != null) {
            assertThat(c.kind().toString()).isEqualTo(kind);
        }
    }

    @Test
    void aStaleReplayIsOnlyAStaleReplayOnTheResponsesApi() {
        fixture.enqueue(error(400, fixture("openai-responses/error-400-previous_response_not_found.json")));

        AssistantMessage message = message();

        Classification asCompletions = classifier.classify(new ClassifierInput(message, "openai-completions", false));
        assertThat(asCompletions.verdict()).isEqualTo(Classification.Verdict.TERMINAL);
    }

    /**
     * The 400 an unverified organisation gets for a reasoning summary, as reported in openai/codex issue threads
     * ("Your organization must be verified to generate reasoning summaries", param {@code reasoning.summary}).
     */
    private static final String SUMMARY_REFUSED = "{\"error\":{\"message\":\"Your organization must be verified to "
            + "generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general "
            + "and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to "
            + "propagate.\",\"type\":\"invalid_request_error\",\"param\":\"reasoning.summary\",\"code\":"
            + "\"unsupported_value\"}}";

    @Test
    void anOrganisationThatMayNotHaveSummariesIsAskedAgainAtOnceWithoutAndNotAskedAgain() throws Exception {
        fixture.enqueue(error(400, SUMMARY_REFUSED));
        fixture.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));
        fixture.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));

        AssistantMessage first = stream("o3").message();
        AssistantMessage second = stream("o3").message();

        assertThat(first.stopReason()).as(first.errorMessage()).isEqualTo(StopReason.STOP);
        assertThat(second.stopReason()).isEqualTo(StopReason.STOP);
        JsonNode asked =
                Json.newMapper().readTree(fixture.takeRequest().getBody().utf8());
        JsonNode again =
                Json.newMapper().readTree(fixture.takeRequest().getBody().utf8());
        JsonNode later =
                Json.newMapper().readTree(fixture.takeRequest().getBody().utf8());
        assertThat(asked.at("/reasoning/summary").asText()).isEqualTo("auto");
        assertThat(again.has("reasoning")).isFalse();
        assertThat(later.has("reasoning")).isFalse();
    }

    @Test
    void anyOther400IsNotSentAgain() {
        fixture.enqueue(error(400, fixture("openai-responses/error-400-context_length_exceeded.json")));
        fixture.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));

        AssistantMessage message = stream("o3").message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(fixture.server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void aRecorded429KeepsItsRateLimitHeadersAndRetryAfterWinsOverTheResetDurations() {
        fixture.enqueue(WireFixture.withHeaders(
                        new mockwebserver3.MockResponse.Builder().code(429), "openai-responses/headers-429.txt")
                .body(fixture("openai-responses/error-429-rate_limit_exceeded.json"))
                .build());
        fixture.enqueue(WireFixture.withHeaders(
                        new mockwebserver3.MockResponse.Builder().code(429), "openai-responses/headers-429.txt")
                .removeHeader("retry-after")
                .body("{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\","
                        + "\"code\":\"rate_limit_exceeded\"}}")
                .build());

        AssistantMessage withRetryAfter = message();
        AssistantMessage withResets = message();

        assertThat(withRetryAfter.failure().header("x-request-id")).isEqualTo("req_deaa3616cbd15d33b4db96b3ba74d2b4");
        assertThat(new RetryHints(WireFixture.CLOCK).parse(withRetryAfter.failure(), withRetryAfter.errorMessage()))
                .contains(new dev.rebound.retry.RetryHint(20_000, "retry-after"));
        assertThat(new RetryHints(WireFixture.CLOCK).parse(withResets.failure(), withResets.errorMessage()))
                .as("the longer of the request and token resets")
                .hasValueSatisfying(h -> assertThat(h.delayMs()).isEqualTo(360_000));
    }
}
