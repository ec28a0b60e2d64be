package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The simulator speaking OpenAI's Responses API over loopback: events, chaining, refusals, error shapes. */
class ResponsesWireTest {
    private static final String PATH = "/v1/responses";
    private static final String PROMPT = "Give one example.";

    private static ScriptedSimulator sim;

    @BeforeAll
    static void start() throws Exception {
        sim = ScriptedSimulator.start();
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    /** A request in the shape Rebound and Codex send; {@code extra} is spliced in as more top-level fields. */
    private static String body(boolean stream, String extra) {
        return """
                {"model":"gpt-sim","instructions":"Be brief.","input":[\
                {"type":"message","role":"user","content":[{"type":"input_text","text":"What is a monad?"}]},\
                {"type":"message","role":"assistant","content":[{"type":"output_text","text":"A pattern."}]},\
                {"role":"user","content":[{"type":"input_text","text":"%s"}]}],"stream":%s%s}""".formatted(PROMPT, stream, extra);
    }

    private static SimulatorClient.Reply post(Fault fault, String body) throws Exception {
        return sim.post(fault, PATH, body, "Authorization", "Bearer sim-key-primary");
    }

    private static String expectedReply() {
        return String.join("", new ReplyComposer(7).reply(PROMPT));
    }

    static String text(List<SimulatorClient.Sse> events) {
        StringBuilder text = new StringBuilder();
        for (SimulatorClient.Sse event : events) {
            if ("response.output_text.delta".equals(event.event())) {
                text.append(event.json().path("delta").asText());
            }
        }
        return text.toString();
    }

    @Test
    void aStreamIsCreatedItemPartDeltasThenCompletedWithUsage() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Ok(), body(true, ""));

        List<SimulatorClient.Sse> events = reply.events();
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("content-type")).isEqualTo("text/event-stream; charset=utf-8");
        assertThat(events)
                .allSatisfy(e -> assertThat(e.json().path("type").asText()).isEqualTo(e.event()));
        assertThat(events)
                .extracting(e -> e.json().path("sequence_number").asInt())
                .isEqualTo(IntStream.range(0, events.size()).boxed().toList());
        assertThat(events.stream().map(SimulatorClient.Sse::event).distinct())
                .containsExactly(
                        "response.created",
                        "response.in_progress",
                        "response.output_item.added",
                        "response.content_part.added",
                        "response.output_text.delta",
                        "response.output_text.done",
                        "response.content_part.done",
                        "response.output_item.done",
                        "response.completed");
        JsonNode created = events.getFirst().json().path("response");
        assertThat(created.path("id").asText()).matches("resp_sim_[0-9a-z]+_\\d+");
        assertThat(created.path("status").asText()).isEqualTo("in_progress");
        assertThat(text(events)).isEqualTo(expectedReply());
        assertThat(events.get(events.size() - 4).json().path("text").asText()).isEqualTo(expectedReply());
        JsonNode completed = events.getLast().json().path("response");
        assertThat(completed.path("id").asText()).isEqualTo(created.path("id").asText());
        assertThat(completed.path("status").asText()).isEqualTo("completed");
        assertThat(completed
                        .path("output")
                        .path(0)
                        .path("content")
                        .path(0)
                        .path("text")
                        .asText())
                .isEqualTo(expectedReply());
        assertThat(completed.path("usage").path("input_tokens").asInt())
                .isEqualTo(Tokens.count("Be brief.")
                        + Tokens.count("What is a monad?")
                        + Tokens.count("A pattern.")
                        + Tokens.count(PROMPT));
        assertThat(completed.path("usage").path("output_tokens").asInt()).isEqualTo(ReplyComposer.SHORT_TOKENS);
        assertThat(reply.body()).doesNotContain("[DONE]");
    }

    @Test
    void aRequestWithoutStreamGetsOneResponseObject() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Ok(), body(false, ""));

        JsonNode response = reply.json();
        assertThat(response.path("object").asText()).isEqualTo("response");
        assertThat(response.path("status").asText()).isEqualTo("completed");
        assertThat(response.path("output")
                        .path(0)
                        .path("content")
                        .path(0)
                        .path("type")
                        .asText())
                .isEqualTo("output_text");
        assertThat(response.path("output")
                        .path(0)
                        .path("content")
                        .path(0)
                        .path("text")
                        .asText())
                .isEqualTo(expectedReply());
        assertThat(response.path("usage").path("output_tokens").asInt()).isEqualTo(ReplyComposer.SHORT_TOKENS);
    }

    @Test
    void aRefusalStreamsRefusalDeltasThenCompletes() throws Exception {
        SimulatorClient.Reply streamed = post(new Fault.Refusal(), body(true, ""));
        SimulatorClient.Reply whole = post(new Fault.Refusal(), body(false, ""));

        List<SimulatorClient.Sse> events = streamed.events();
        StringBuilder refusal = new StringBuilder();
        events.stream()
                .filter(e -> "response.refusal.delta".equals(e.event()))
                .forEach(e -> refusal.append(e.json().path("delta").asText()));
        assertThat(refusal).hasToString(ChatCompletionsFormat.REFUSAL);
        assertThat(events).noneMatch(e -> "response.output_text.delta".equals(e.event()));
        assertThat(events.getLast().event()).isEqualTo("response.completed");
        assertThat(events.getLast()
                        .json()
                        .path("response")
                        .path("output")
                        .path(0)
                        .path("content")
                        .path(0)
                        .path("type")
                        .asText())
                .isEqualTo("refusal");
        assertThat(whole.json()
                        .path("output")
                        .path(0)
                        .path("content")
                        .path(0)
                        .path("refusal")
                        .asText())
                .isEqualTo(ChatCompletionsFormat.REFUSAL);
    }

    @Test
    void anUnknownPreviousResponseIdIsPreviousResponseNotFoundAndTakesNoStep() throws Exception {
        sim.faults().replace(List.of(FaultStep.any(new Fault.Overload())));

        SimulatorClient.Reply reply = sim.client().post(PATH, body(true, ",\"previous_response_id\":\"resp_gone\""));

        assertThat(reply.status()).isEqualTo(400);
        JsonNode error = reply.json().path("error");
        assertThat(error.path("message").asText()).isEqualTo("Previous response with id 'resp_gone' not found.");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("param").asText()).isEqualTo("previous_response_id");
        assertThat(error.path("code").asText()).isEqualTo("previous_response_not_found");
        assertThat(sim.faults().queued()).hasSize(1);
    }

    @Test
    void aStoredResponseCanBeChainedOnButOneAnsweredWithStoreFalseCannot() throws Exception {
        String stored = post(new Fault.Ok(), body(false, "")).json().path("id").asText();
        String unstored = post(new Fault.Ok(), body(false, ",\"store\":false"))
                .json()
                .path("id")
                .asText();

        SimulatorClient.Reply chained =
                post(new Fault.Ok(), body(true, ",\"previous_response_id\":\"" + stored + "\""));
        SimulatorClient.Reply stale =
                post(new Fault.Ok(), body(true, ",\"previous_response_id\":\"" + unstored + "\""));

        assertThat(chained.status()).isEqualTo(200);
        assertThat(chained.events()
                        .getFirst()
                        .json()
                        .path("response")
                        .path("previous_response_id")
                        .asText())
                .isEqualTo(stored);
        assertThat(stale.status()).isEqualTo(400);
        assertThat(stale.json().path("error").path("code").asText()).isEqualTo("previous_response_not_found");
    }

    @Test
    void anOverloadInStreamIsAnErrorEventAfterTheResponseIsCreated() throws Exception {
        SimulatorClient.Reply streamed = post(new Fault.Overload(true), body(true, ""));
        SimulatorClient.Reply whole = post(new Fault.Overload(true), body(false, ""));

        List<SimulatorClient.Sse> events = streamed.events();
        assertThat(streamed.status()).isEqualTo(200);
        assertThat(events)
                .extracting(SimulatorClient.Sse::event)
                .containsExactly("response.created", "response.in_progress", "error");
        assertThat(events)
                .extracting(e -> e.json().path("sequence_number").asInt())
                .containsExactly(0, 1, 2);
        assertThat(events.getLast().json().path("error").path("code").asText()).isEqualTo("server_error");
        assertThat(whole.status()).isEqualTo(503);
    }

    static Stream<Arguments> errorFaults() {
        return Stream.of(
                Arguments.of(new Fault.Overload(), 503, "server_error", null, "The server is overloaded"),
                Arguments.of(new Fault.ServerError(500), 500, "server_error", null, "The server had an error"),
                Arguments.of(new Fault.ServerError(503), 503, "server_error", null, "The server is overloaded"),
                Arguments.of(new Fault.RateLimit(2L, null), 429, "requests", "rate_limit_exceeded", "Rate limit"),
                Arguments.of(new Fault.UsageLimit(90), 429, "usage_limit_reached", null, "The usage limit"),
                Arguments.of(
                        new Fault.InsufficientQuota(),
                        429,
                        "insufficient_quota",
                        "insufficient_quota",
                        "You exceeded your current quota"),
                Arguments.of(
                        new Fault.ContextOverflow(),
                        400,
                        "invalid_request_error",
                        "context_length_exceeded",
                        "Your input exceeds the context window of this model."),
                Arguments.of(
                        new Fault.Unauthorized(),
                        401,
                        "invalid_request_error",
                        "invalid_api_key",
                        "Incorrect API key provided: sim-***"));
    }

    @ParameterizedTest(name = "{0} → {1} {2}")
    @MethodSource("errorFaults")
    void anErrorFaultIsOpenAisErrorObjectWithItsStatus(
            Fault fault, int status, String type, String code, String message) throws Exception {
        SimulatorClient.Reply reply = post(fault, body(true, ""));

        JsonNode error = reply.json().path("error");
        assertThat(reply.status()).isEqualTo(status);
        assertThat(error.path("type").asText()).isEqualTo(type);
        assertThat(error.path("code").isTextual() ? error.path("code").asText() : null)
                .isEqualTo(code);
        assertThat(error.path("message").asText()).startsWith(message);
    }

    @Test
    void aContextOverflowNamesTheInput() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.ContextOverflow(), body(true, ""));

        assertThat(reply.json().path("error").path("param").asText()).isEqualTo("input");
    }

    @Test
    void aBodyWithoutInputIsAnOpenAiInvalidRequest() throws Exception {
        SimulatorClient.Reply reply = sim.client().post(PATH, "{\"model\":\"gpt-sim\"}");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("error").path("type").asText()).isEqualTo("invalid_request_error");
    }
}
