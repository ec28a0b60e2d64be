package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The exact bytes of the Chat Completions dialect, pinned so that the other wire formats sharing its server can never
 * change what {@code POST /v1/chat/completions} sends.
 */
class ChatCompletionsWireTest {
    private static final String PATH = "/v1/chat/completions";
    private static final String KEY_HEADER = "Authorization";
    private static final String KEY = "Bearer sim-key-primary-123456";
    private static final String STREAM_WITH_USAGE = """
            {"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[\
            {"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"answer in 5 tokens"}]}]}""";
    private static final String STREAM = """
            {"model":"m","stream":true,"messages":[{"role":"user","content":"answer in 5 tokens"}]}""";
    private static final String WHOLE = """
            {"model":"m","messages":[{"role":"user","content":"answer in 5 tokens"}]}""";
    private static final String CHUNK = """
            data: {"id":"chatcmpl-sim-%d","object":"chat.completion.chunk","created":1767225600,"model":"m",\
            "system_fingerprint":"fp_rebound_simulator","choices":%s}

            """;

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
        return sim.post(fault, PATH, body, KEY_HEADER, KEY);
    }

    private static String chunk(long id, String choices) {
        return CHUNK.formatted(id, choices);
    }

    private static long id(SimulatorClient.Reply reply) {
        return Long.parseLong(reply.header("x-request-id").substring("req_sim_".length()));
    }

    @Test
    void aStreamedReplyIsTheRoleChunkTheTextTheFinishTheUsageThenDone() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Ok(), STREAM_WITH_USAGE);

        long n = id(reply);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("content-type")).isEqualTo("text/event-stream; charset=utf-8");
        assertThat(reply.header("cache-control")).isEqualTo("no-cache");
        assertThat(reply.body())
                .isEqualTo(chunk(
                                n,
                                "[{\"index\":0,\"logprobs\":null,\"finish_reason\":null,"
                                        + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]")
                        + chunk(
                                n,
                                "[{\"index\":0,\"logprobs\":null,\"finish_reason\":null,"
                                        + "\"delta\":{\"content\":\"## Retrying with exponential\"}}]")
                        + chunk(n, "[{\"index\":0,\"logprobs\":null,\"finish_reason\":\"stop\",\"delta\":{}}]")
                        + chunk(n, "[],\"usage\":{\"prompt_tokens\":13,\"completion_tokens\":5,\"total_tokens\":18}")
                        + "data: [DONE]\n\n");
    }

    @Test
    void aStreamWithoutIncludeUsageHasNoUsageChunk() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Ok(), STREAM);

        long n = id(reply);
        assertThat(reply.body())
                .endsWith(chunk(n, "[{\"index\":0,\"logprobs\":null,\"finish_reason\":\"stop\",\"delta\":{}}]")
                        + "data: [DONE]\n\n")
                .doesNotContain("usage");
    }

    @Test
    void aStreamedRefusalCarriesTheRefusalFieldThenFinishesNormally() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Refusal(), STREAM_WITH_USAGE);

        long n = id(reply);
        assertThat(reply.body())
                .isEqualTo(chunk(
                                n,
                                "[{\"index\":0,\"logprobs\":null,\"finish_reason\":null,"
                                        + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]")
                        + chunk(
                                n,
                                "[{\"index\":0,\"logprobs\":null,\"finish_reason\":null,"
                                        + "\"delta\":{\"content\":null,"
                                        + "\"refusal\":\"I'm sorry, but I can't help with that request.\"}}]")
                        + chunk(n, "[{\"index\":0,\"logprobs\":null,\"finish_reason\":\"stop\",\"delta\":{}}]")
                        + chunk(n, "[],\"usage\":{\"prompt_tokens\":13,\"completion_tokens\":9,\"total_tokens\":22}")
                        + "data: [DONE]\n\n");
    }

    @Test
    void aCutAfterEndsTheStreamAfterThatManyCharactersWithNoFinishAndNoDone() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.CutAfter(10), STREAM);

        long n = id(reply);
        assertThat(reply.body())
                .isEqualTo(chunk(
                                n,
                                "[{\"index\":0,\"logprobs\":null,\"finish_reason\":null,"
                                        + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]")
                        + chunk(
                                n,
                                "[{\"index\":0,\"logprobs\":null,\"finish_reason\":null,"
                                        + "\"delta\":{\"content\":\"## Retryin\"}}]"));
    }

    @Test
    void aRequestWithoutStreamGetsOneChatCompletion() throws Exception {
        SimulatorClient.Reply reply = post(new Fault.Ok(), WHOLE);
        SimulatorClient.Reply refused = post(new Fault.Refusal(), WHOLE);

        assertThat(reply.header("content-type")).isEqualTo("application/json");
        assertThat(reply.body())
                .isEqualTo("{\"id\":\"chatcmpl-sim-" + id(reply) + "\",\"object\":\"chat.completion\","
                        + "\"created\":1767225600,\"model\":\"m\",\"system_fingerprint\":\"fp_rebound_simulator\","
                        + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                        + "\"content\":\"## Retrying with exponential\",\"refusal\":null},\"logprobs\":null,"
                        + "\"finish_reason\":\"stop\"}],"
                        + "\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":5,\"total_tokens\":13}}");
        assertThat(refused.body())
                .isEqualTo("{\"id\":\"chatcmpl-sim-" + id(refused) + "\",\"object\":\"chat.completion\","
                        + "\"created\":1767225600,\"model\":\"m\",\"system_fingerprint\":\"fp_rebound_simulator\","
                        + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
                        + "\"refusal\":\"I'm sorry, but I can't help with that request.\"},\"logprobs\":null,"
                        + "\"finish_reason\":\"stop\"}],"
                        + "\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":9,\"total_tokens\":17}}");
    }

    @Test
    void anOverloadInStreamIsOneErrorEventInA200WhileAWholeRequestStillGets529() throws Exception {
        SimulatorClient.Reply streamed = post(new Fault.Overload(true), STREAM);
        SimulatorClient.Reply whole = post(new Fault.Overload(true), WHOLE);

        assertThat(streamed.status()).isEqualTo(200);
        assertThat(streamed.body())
                .isEqualTo("data: {\"error\":{\"message\":\"The server is overloaded or not ready yet.\","
                        + "\"type\":\"server_error\",\"param\":null,\"code\":null}}\n\n");
        assertThat(whole.status()).isEqualTo(529);
    }

    static Stream<Arguments> errorFaults() {
        String rateLimit = "{\"error\":{\"message\":\"Rate limit reached for m in organization org-simulator on "
                + "requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in %s. Visit "
                + "https://platform.openai.com/account/rate-limits to learn more.\",\"type\":\"requests\","
                + "\"param\":null,\"code\":\"rate_limit_exceeded\"}}";
        return Stream.of(
                Arguments.of(
                        new Fault.Overload(),
                        529,
                        null,
                        null,
                        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"},"
                                + "\"request_id\":\"req_sim_N\"}"),
                Arguments.of(
                        new Fault.ServerError(500),
                        500,
                        null,
                        null,
                        "{\"error\":{\"message\":\"The server had an error while processing your request. Sorry "
                                + "about that!\",\"type\":\"server_error\",\"param\":null,\"code\":null}}"),
                Arguments.of(
                        new Fault.ServerError(503),
                        503,
                        null,
                        null,
                        "{\"error\":{\"message\":\"The server is overloaded or not ready yet.\","
                                + "\"type\":\"server_error\",\"param\":null,\"code\":null}}"),
                Arguments.of(new Fault.RateLimit(2L, null), 429, "retry-after", "2", rateLimit.formatted("2s")),
                Arguments.of(
                        new Fault.RateLimit(null, 1500L), 429, "retry-after-ms", "1500", rateLimit.formatted("1500ms")),
                Arguments.of(
                        new Fault.UsageLimit(90),
                        429,
                        "retry-after",
                        "90",
                        "{\"error\":{\"type\":\"usage_limit_reached\",\"message\":\"The usage limit has been "
                                + "reached\",\"plan_type\":\"plus\",\"resets_at\":1767225690,"
                                + "\"resets_in_seconds\":90}}"),
                Arguments.of(
                        new Fault.InsufficientQuota(),
                        429,
                        null,
                        null,
                        "{\"error\":{\"message\":\"You exceeded your current quota, please check your plan and "
                                + "billing details. For more information on this error, read the docs: "
                                + "https://platform.openai.com/docs/guides/error-codes/api-errors.\","
                                + "\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient_quota\"}}"),
                Arguments.of(
                        new Fault.ContextOverflow(),
                        400,
                        null,
                        null,
                        "{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens. However, "
                                + "your messages resulted in 131072 tokens. Please reduce the length of the "
                                + "messages.\",\"type\":\"invalid_request_error\",\"param\":\"messages\","
                                + "\"code\":\"context_length_exceeded\"}}"),
                Arguments.of(
                        new Fault.Unauthorized(),
                        401,
                        null,
                        null,
                        "{\"error\":{\"message\":\"Incorrect API key provided: sim-**************3456. You can find "
                                + "your API key at https://platform.openai.com/account/api-keys.\","
                                + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}"));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @MethodSource("errorFaults")
    void anErrorFaultKeepsItsExactStatusHeaderAndBody(Fault fault, int status, String header, String value, String body)
            throws Exception {
        SimulatorClient.Reply reply = post(fault, STREAM);

        assertThat(reply.status()).isEqualTo(status);
        assertThat(reply.header("content-type")).isEqualTo("application/json");
        if (header != null) {
            assertThat(reply.header(header)).isEqualTo(value);
        }
        assertThat(reply.body().replaceAll("req_sim_\\d+", "req_sim_N")).isEqualTo(body);
    }

    @Test
    void anUnreadableBodyAndAnUnknownPathGetOpenAiErrors() throws Exception {
        SimulatorClient.Reply bad = sim.client().post(PATH, "{\"model\":\"m\"}");
        SimulatorClient.Reply notJson = sim.client().post(PATH, "nope");
        SimulatorClient.Reply notFound = sim.client().get("/v1/nowhere");

        String badBody = "{\"error\":{\"message\":\"The request body must be a JSON object with a \\\"messages\\\" "
                + "array (OpenAI Chat Completions format).\",\"type\":\"invalid_request_error\",\"param\":null,"
                + "\"code\":null}}";
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body()).isEqualTo(badBody);
        assertThat(notJson.body()).isEqualTo(badBody);
        assertThat(notFound.status()).isEqualTo(404);
        assertThat(notFound.body())
                .isEqualTo(
                        "{\"error\":{\"message\":\"Invalid URL (GET /v1/nowhere)\",\"type\":\"invalid_request_error\","
                                + "\"param\":null,\"code\":null}}");
    }
}
