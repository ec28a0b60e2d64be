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

/** The simulator speaking Anthropic's Messages API over loopback: events, whole messages, refusals, error shapes. */
class AnthropicMessagesWireTest {
    private static final String PATH = "/v1/messages";
    private static final String PROMPT = "What is backoff?";
    private static final String STREAM = """
            {"model":"claude-sim","max_tokens":1024,"stream":true,"system":"Be brief.","messages":[\
            {"role":"user","content":"hello"},{"role":"assistant","content":[{"type":"text","text":"Hi."}]},\
            {"role":"user","content":[{"type":"text","text":"%s"}]}]}""".formatted(PROMPT);
    private static final String WHOLE = """
            {"model":"claude-sim","max_tokens":1024,"messages":[{"role":"user","content":"%s"}]}""".formatted(PROMPT);

    private static ScriptedSimulator sim;

    @BeforeAll
    static void start() throws Exception {
        sim = ScriptedSimulator.start();
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static SimulatorClient.Reply post(Fault fault, String body) throws Exception {
        return sim.post(fault, PATH, body, "x-api-key", "sim-key-primary", "anthropic-version", "2023-06-01");
    }

    private static String expectedReply() {
        return String.join("", new ReplyComposer(7).reply(PROMPT));
    }

    @Test
    void aStreamIsMessageStartATextBlockOfDeltasThenEndTurnWithUsage() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Ok(), STREAM);

        List<SimulatorClient.Sse> events = reply.events();
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("content-type")).isEqualTo("text/event-stream; charset=utf-8");
        assertThat(reply.header("request-id")).startsWith("req_sim_");
        assertThat(events)
                .allSatisfy(e -> assertThat(e.json().path("type").asText()).isEqualTo(e.event()));
        assertThat(events.stream().map(SimulatorClient.Sse::event).distinct())
                .containsExactly(
                        "message_start",
                        "content_block_start",
                        "ping",
                        "content_block_delta",
                        "content_block_stop",
                        "message_delta",
                        "message_stop");
        JsonNode message = events.getFirst().json().path("message");
        assertThat(message.path("id").asText()).startsWith("msg_sim_");
        assertThat(message.path("model").asText()).isEqualTo("claude-sim");
        assertThat(message.path("usage").path("input_tokens").asInt())
                .isEqualTo(
                        Tokens.count("Be brief.") + Tokens.count("hello") + Tokens.count("Hi.") + Tokens.count(PROMPT));
        assertThat(events.get(1).json().path("content_block").path("type").asText())
                .isEqualTo("text");
        assertThat(text(events)).isEqualTo(expectedReply());
        JsonNode delta = events.get(events.size() - 2).json();
        assertThat(delta.path("delta").path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(delta.path("usage").path("output_tokens").asInt()).isEqualTo(ReplyComposer.SHORT_TOKENS);
    }

    static String text(List<SimulatorClient.Sse> events) {
        StringBuilder text = new StringBuilder();
        for (SimulatorClient.Sse event : events) {
            if ("content_block_delta".equals(event.event())) {
                text.append(event.json().path("delta").path("text").asText());
            }
        }
        return text.toString();
    }

    @Test
    void aRequestWithoutStreamGetsOneMessageObject() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Ok(), WHOLE);

        JsonNode message = reply.json();
        assertThat(reply.header("content-type")).isEqualTo("application/json");
        assertThat(message.path("type").asText()).isEqualTo("message");
        assertThat(message.path("role").asText()).isEqualTo("assistant");
        assertThat(message.path("content").path(0).path("type").asText()).isEqualTo("text");
        assertThat(message.path("content").path(0).path("text").asText()).isEqualTo(expectedReply());
        assertThat(message.path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(message.path("usage").path("output_tokens").asInt()).isEqualTo(ReplyComposer.SHORT_TOKENS);
    }

    @Test
    void aRefusalEndsTheTurnWithStopReasonRefusalAndItsExplanation() throws Exception {
        SimulatorClient.Reply streamed = post(new Fault.Refusal(), STREAM);
        SimulatorClient.Reply whole = post(new Fault.Refusal(), WHOLE);

        List<SimulatorClient.Sse> events = streamed.events();
        assertThat(events)
                .extracting(SimulatorClient.Sse::event)
                .containsExactly(
                        "message_start", "content_block_start", "content_block_stop", "message_delta", "message_stop");
        JsonNode delta = events.get(3).json().path("delta");
        assertThat(delta.path("stop_reason").asText()).isEqualTo("refusal");
        assertThat(delta.path("stop_details").path("type").asText()).isEqualTo("refusal");
        assertThat(delta.path("stop_details").path("explanation").asText())
                .isEqualTo(AnthropicFormat.REFUSAL_EXPLANATION);
        assertThat(whole.json().path("stop_reason").asText()).isEqualTo("refusal");
        assertThat(whole.json().path("content")).isEmpty();
        assertThat(whole.json().path("stop_details").path("explanation").asText())
                .isEqualTo(AnthropicFormat.REFUSAL_EXPLANATION);
    }

    @Test
    void anOverloadInStreamIsAnErrorEventBeforeMessageStartInA200() throws Exception {
        SimulatorClient.Reply streamed = post(new Fault.Overload(true), STREAM);
        SimulatorClient.Reply whole = post(new Fault.Overload(true), WHOLE);

        assertThat(streamed.status()).isEqualTo(200);
        assertThat(streamed.events()).singleElement().satisfies(event -> {
            assertThat(event.event()).isEqualTo("error");
            assertThat(event.json().path("error").path("type").asText()).isEqualTo("overloaded_error");
            assertThat(event.json().path("request_id").asText()).isEqualTo(streamed.header("request-id"));
        });
        assertThat(whole.status()).isEqualTo(529);
    }

    static Stream<Arguments> errorFaults() {
        return Stream.of(
                Arguments.of(new Fault.Overload(), 529, "overloaded_error", "Overloaded", "true"),
                Arguments.of(new Fault.ServerError(500), 500, "api_error", "Internal server error", "true"),
                Arguments.of(new Fault.ServerError(503), 500, "api_error", "Internal server error", "true"),
                Arguments.of(
                        new Fault.RateLimit(2L, null),
                        429,
                        "rate_limit_error",
                        "This request would exceed your organization's rate limit of 50 requests per minute (org: "
                                + AnthropicErrors.ORGANIZATION + ", model: claude-sim).",
                        "true"),
                Arguments.of(
                        new Fault.UsageLimit(90),
                        429,
                        "rate_limit_error",
                        "You have reached your plan's 5-hour usage limit. Your limit resets at 2026-01-01T00:01:30Z.",
                        null),
                Arguments.of(
                        new Fault.InsufficientQuota(),
                        400,
                        "invalid_request_error",
                        "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing "
                                + "to upgrade or purchase credits.",
                        "false"),
                Arguments.of(
                        new Fault.ContextOverflow(),
                        400,
                        "invalid_request_error",
                        "prompt is too long: 210000 tokens > 200000 maximum",
                        "false"),
                Arguments.of(new Fault.Unauthorized(), 401, "authentication_error", "invalid x-api-key", "false"));
    }

    @ParameterizedTest(name = "{0} → {1} {2}")
    @MethodSource("errorFaults")
    void anErrorFaultIsAnthropicsErrorEnvelopeWithItsStatus(
            Fault fault, int status, String type, String message, String shouldRetry) throws Exception {
        SimulatorClient.Reply reply = post(fault, STREAM);

        JsonNode body = reply.json();
        assertThat(reply.status()).isEqualTo(status);
        assertThat(reply.header("content-type")).isEqualTo("application/json");
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("type").asText()).isEqualTo(type);
        assertThat(body.path("error").path("message").asText()).startsWith(message);
        assertThat(body.path("request_id").asText()).startsWith("req_sim_").isEqualTo(reply.header("request-id"));
        assertThat(reply.header("x-should-retry")).isEqualTo(shouldRetry);
    }

    @Test
    void aRateLimitSaysWhenToRetryInRetryAfterAndTheRequestsResetTime() throws Exception {
        SimulatorClient.Reply seconds = post(new Fault.RateLimit(2L, null), STREAM);
        SimulatorClient.Reply millis = post(new Fault.RateLimit(null, 1500L), STREAM);

        assertThat(seconds.header("retry-after")).isEqualTo("2");
        assertThat(seconds.header("retry-after-ms")).isNull();
        assertThat(seconds.header("anthropic-ratelimit-requests-remaining")).isEqualTo("0");
        assertThat(seconds.header("anthropic-ratelimit-requests-reset")).isEqualTo("2026-01-01T00:00:02Z");
        assertThat(millis.header("retry-after")).isEqualTo("2");
        assertThat(millis.header("retry-after-ms")).isEqualTo("1500");
    }

    @Test
    void aUsageLimitCarriesItsResetAsRetryAfterAndTheUnifiedReset() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.UsageLimit(90), STREAM);

        assertThat(reply.header("retry-after")).isEqualTo("90");
        assertThat(reply.header("anthropic-ratelimit-unified-status")).isEqualTo("rejected");
        assertThat(reply.header("anthropic-ratelimit-unified-reset"))
                .isEqualTo(Long.toString(SimulatorClient.NOW.getEpochSecond() + 90));
    }

    @Test
    void theKeyIsReadFromXApiKeyOrABearerToken() throws Exception {
        sim.faults()
                .replace(List.of(
                        new FaultStep(new Fault.Unauthorized(), "sim-key-secondary"),
                        new FaultStep(new Fault.Overload(), "oauth-token")));

        SimulatorClient.Reply other = sim.client().post(PATH, WHOLE, "x-api-key", "sim-key-primary");
        SimulatorClient.Reply apiKey = sim.client().post(PATH, WHOLE, "x-api-key", "sim-key-secondary");
        SimulatorClient.Reply bearer = sim.client().post(PATH, WHOLE, "Authorization", "Bearer oauth-token");

        assertThat(other.status()).isEqualTo(200);
        assertThat(apiKey.status()).isEqualTo(401);
        assertThat(bearer.status()).isEqualTo(529);
        assertThat(sim.faults().queued()).isEmpty();
    }

    @Test
    void aBodyWithoutMessagesIsAnAnthropicInvalidRequest() throws Exception {
        sim.faults().replace(List.of(FaultStep.any(new Fault.Overload())));

        SimulatorClient.Reply reply = sim.client().post(PATH, "{\"model\":\"claude-sim\"}");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("error").path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(sim.faults().queued()).hasSize(1);
    }
}
