package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The simulator speaking Gemini's generateContent over loopback: chunks, safety blocks, Google's error envelope. */
class GeminiWireTest {
    private static final String STREAM = "/v1beta/models/gemini-sim:streamGenerateContent?alt=sse";
    private static final String WHOLE = "/v1beta/models/gemini-sim:generateContent";
    private static final String PROMPT = "Why is the sky blue?";
    private static final String BODY = """
            {"systemInstruction":{"parts":[{"text":"Be brief."}]},"contents":[\
            {"role":"user","parts":[{"text":"Hi"}]},{"role":"model","parts":[{"text":"Hello!"}]},\
            {"role":"user","parts":[{"text":"%s"}]}]}""".formatted(PROMPT);

    private static ScriptedSimulator sim;

    @BeforeAll
    static void start() throws Exception {
        sim = ScriptedSimulator.start();
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static SimulatorClient.Reply post(Fault fault, String path) throws Exception {
        return sim.post(fault, path, BODY, "x-goog-api-key", "sim-key-primary");
    }

    private static String expectedReply() {
        return String.join("", new ReplyComposer(7).reply(PROMPT));
    }

    static String text(List<SimulatorClient.Sse> events) {
        StringBuilder text = new StringBuilder();
        for (SimulatorClient.Sse event : events) {
            for (JsonNode part :
                    event.json().path("candidates").path(0).path("content").path("parts")) {
                text.append(part.path("text").asText());
            }
        }
        return text.toString();
    }

    @Test
    void aStreamIsGenerateContentChunksEndingInStopWithTheUsage() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Ok(), STREAM);

        List<SimulatorClient.Sse> events = reply.events();
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("content-type")).isEqualTo("text/event-stream");
        assertThat(reply.body()).startsWith("data: {").endsWith("}\r\n\r\n").doesNotContain("event:");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.event()).isNull();
            assertThat(e.json().path("modelVersion").asText()).isEqualTo("gemini-sim");
            assertThat(e.json().path("responseId").asText())
                    .hasSize(23)
                    .isEqualTo(events.getFirst().json().path("responseId").asText());
        });
        assertThat(text(events)).isEqualTo(expectedReply());
        assertThat(events.subList(0, events.size() - 1))
                .noneMatch(e -> e.json().path("candidates").path(0).has("finishReason"));
        JsonNode last = events.getLast().json();
        assertThat(last.path("candidates").path(0).path("finishReason").asText())
                .isEqualTo("STOP");
        JsonNode usage = last.path("usageMetadata");
        int prompt = Tokens.count("Be brief.") + Tokens.count("Hi") + Tokens.count("Hello!") + Tokens.count(PROMPT);
        assertThat(usage.path("promptTokenCount").asInt()).isEqualTo(prompt);
        assertThat(usage.path("candidatesTokenCount").asInt()).isEqualTo(ReplyComposer.SHORT_TOKENS);
        assertThat(usage.path("totalTokenCount").asInt()).isEqualTo(prompt + ReplyComposer.SHORT_TOKENS);
    }

    @Test
    void generateContentAnswersOneResponse() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Ok(), WHOLE);

        JsonNode candidate = reply.json().path("candidates").path(0);
        assertThat(reply.header("content-type")).isEqualTo("application/json; charset=UTF-8");
        assertThat(candidate.path("content").path("parts").path(0).path("text").asText())
                .isEqualTo(expectedReply());
        assertThat(candidate.path("content").path("role").asText()).isEqualTo("model");
        assertThat(candidate.path("finishReason").asText()).isEqualTo("STOP");
    }

    @Test
    void aRefusalIsASafetyFinishWithABlockedRating() throws Exception {
        SimulatorClient.Reply streamed = post(new Fault.Refusal(), STREAM);
        SimulatorClient.Reply whole = post(new Fault.Refusal(), WHOLE);

        assertThat(streamed.events()).hasSize(1);
        for (JsonNode response : List.of(streamed.events().getFirst().json(), whole.json())) {
            JsonNode candidate = response.path("candidates").path(0);
            assertThat(candidate.has("content")).isFalse();
            assertThat(candidate.path("finishReason").asText()).isEqualTo("SAFETY");
            assertThat(candidate.path("safetyRatings"))
                    .filteredOn(rating -> rating.path("blocked").asBoolean())
                    .singleElement()
                    .satisfies(rating ->
                            assertThat(rating.path("category").asText()).isEqualTo(GeminiFormat.BLOCKED_CATEGORY));
        }
    }

    @Test
    void anOverloadInStreamIsGooglesErrorEnvelopeAsTheOnlyChunk() throws Exception {
        SimulatorClient.Reply streamed = post(new Fault.Overload(true), STREAM);
        SimulatorClient.Reply whole = post(new Fault.Overload(true), WHOLE);

        assertThat(streamed.status()).isEqualTo(200);
        assertThat(streamed.events()).singleElement().satisfies(event -> {
            assertThat(event.json().path("error").path("code").asInt()).isEqualTo(503);
            assertThat(event.json().path("error").path("status").asText()).isEqualTo("UNAVAILABLE");
        });
        assertThat(whole.status()).isEqualTo(503);
    }

    static Stream<Arguments> errorFaults() {
        return Stream.of(
                Arguments.of(
                        new Fault.Overload(), 503, "UNAVAILABLE", "The model is overloaded. Please try again later."),
                Arguments.of(new Fault.ServerError(500), 500, "INTERNAL", "An internal error has occurred."),
                Arguments.of(
                        new Fault.ServerError(503),
                        503,
                        "UNAVAILABLE",
                        "This model is currently experiencing high demand."),
                Arguments.of(
                        new Fault.RateLimit(2L, null), 429, "RESOURCE_EXHAUSTED", "You exceeded your current quota"),
                Arguments.of(new Fault.UsageLimit(90), 429, "RESOURCE_EXHAUSTED", "You exceeded your current quota"),
                Arguments.of(
                        new Fault.InsufficientQuota(),
                        429,
                        "RESOURCE_EXHAUSTED",
                        "Your prepayment credits are depleted."),
                Arguments.of(
                        new Fault.ContextOverflow(),
                        400,
                        "INVALID_ARGUMENT",
                        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."),
                Arguments.of(
                        new Fault.Unauthorized(),
                        400,
                        "INVALID_ARGUMENT",
                        "API key not valid. Please pass a valid API key."));
    }

    @ParameterizedTest(name = "{0} → {1} {2}")
    @MethodSource("errorFaults")
    void anErrorFaultIsGooglesErrorEnvelopeWithItsStatus(Fault fault, int status, String code, String message)
            throws Exception {
        SimulatorClient.Reply reply = post(fault, STREAM);

        JsonNode error = reply.json().path("error");
        assertThat(reply.status()).isEqualTo(status);
        assertThat(reply.header("content-type")).isEqualTo("application/json; charset=UTF-8");
        assertThat(reply.body())
                .startsWith("{\n  \"error\": {\n    \"code\": " + status + ",")
                .endsWith("}\n");
        assertThat(error.path("code").asInt()).isEqualTo(status);
        assertThat(error.path("status").asText()).isEqualTo(code);
        assertThat(error.path("message").asText()).startsWith(message);
    }

    private static JsonNode detail(JsonNode error, String type) {
        for (JsonNode detail : error.path("details")) {
            if (detail.path("@type").asText().equals("type.googleapis.com/google.rpc." + type)) {
                return detail;
            }
        }
        throw new AssertionError("no " + type + " in " + error);
    }

    @Test
    void aRateLimitNamesItsPerMinuteQuotaAndItsRetryDelay() throws Exception {
        JsonNode seconds = post(new Fault.RateLimit(2L, null), STREAM).json().path("error");
        JsonNode millis = post(new Fault.RateLimit(null, 1500L), STREAM).json().path("error");

        assertThat(detail(seconds, "QuotaFailure")
                        .path("violations")
                        .path(0)
                        .path("quotaId")
                        .asText())
                .isEqualTo("GenerateRequestsPerMinutePerProjectPerModel-FreeTier");
        assertThat(detail(seconds, "RetryInfo").path("retryDelay").asText()).isEqualTo("2s");
        assertThat(seconds.path("message").asText()).endsWith("Please retry in 2s.");
        assertThat(detail(millis, "RetryInfo").path("retryDelay").asText()).isEqualTo("1.5s");
    }

    @Test
    void aUsageLimitNamesAPerDayQuotaWithItsResetAsTheRetryDelay() throws Exception {
        JsonNode error = post(new Fault.UsageLimit(90), STREAM).json().path("error");

        assertThat(detail(error, "QuotaFailure")
                        .path("violations")
                        .path(0)
                        .path("quotaId")
                        .asText())
                .isEqualTo("GenerateRequestsPerDayPerProjectPerModel-FreeTier");
        assertThat(detail(error, "RetryInfo").path("retryDelay").asText()).isEqualTo("90s");
    }

    @Test
    void aBadKeyIsA400WithTheApiKeyInvalidReason() throws Exception {
        JsonNode error = post(new Fault.Unauthorized(), STREAM).json().path("error");

        JsonNode info = detail(error, "ErrorInfo");
        assertThat(info.path("reason").asText()).isEqualTo("API_KEY_INVALID");
        assertThat(info.path("domain").asText()).isEqualTo("googleapis.com");
    }

    @Test
    void theKeyIsReadFromTheHeaderOrTheKeyQueryParameter() throws Exception {
        sim.faults()
                .replace(List.of(
                        new FaultStep(new Fault.Unauthorized(), "header-key"),
                        new FaultStep(new Fault.Overload(), "query-key")));

        SimulatorClient.Reply other = sim.client().post(WHOLE, BODY, "x-goog-api-key", "another-key");
        SimulatorClient.Reply header = sim.client().post(WHOLE, BODY, "x-goog-api-key", "header-key");
        SimulatorClient.Reply query = sim.client().post(WHOLE + "?key=query-key", BODY);

        assertThat(other.status()).isEqualTo(200);
        assertThat(header.status()).isEqualTo(400);
        assertThat(query.status()).isEqualTo(503);
    }

    @Test
    void theModelListIsGeminisShapeAndAnUnreadableBodyIsInvalidArgument() throws Exception {
        SimulatorClient.Reply models = sim.client().get("/v1beta/models");
        SimulatorClient.Reply bad = sim.client().post(STREAM, "{\"prompt\":\"hi\"}");

        assertThat(models.json().path("models").path(0).path("name").asText())
                .isEqualTo("models/" + SimulatorServer.MODEL_ID);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().path("error").path("status").asText()).isEqualTo("INVALID_ARGUMENT");
    }
}
