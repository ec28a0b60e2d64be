package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.util.Optional;

/**
 * OpenAI's Chat Completions: {@code POST /v1/chat/completions} with a {@code messages} array, the key as
 * {@code Authorization: Bearer}. Its error faults are {@link FaultResponses}' bodies and its answers
 * {@link ChatCompletionsFormat}'s chunks — the simulator's first format, whose bytes no other format may change.
 */
final class ChatCompletionsDialect implements WireDialect {
    private final ObjectMapper mapper;
    private final Clock clock;
    private final FaultResponses responses;

    ChatCompletionsDialect(ObjectMapper mapper, Clock clock, FaultResponses responses) {
        this.mapper = mapper;
        this.clock = clock;
        this.responses = responses;
    }

    @Override
    public Reading read(Incoming incoming) {
        JsonNode body = incoming.body();
        if (body == null || !body.isObject() || !body.path("messages").isArray()) {
            return new Reading.Refused(responses.badRequest("The request body must be a JSON object with a "
                    + "\"messages\" array (OpenAI Chat Completions format)."));
        }
        JsonNode messages = body.path("messages");
        int promptTokens = 0;
        for (JsonNode message : messages) {
            promptTokens += Tokens.count(PromptText.of(message.path("content"))) + 4;
        }
        return new Reading.Accepted(new ReplyRequest(
                body,
                body.path("model").asText(SimulatorServer.MODEL_ID),
                SimulatorServer.bearer(incoming.headers().getFirst("Authorization")),
                PromptText.last(messages, "role", "user", "content"),
                promptTokens,
                body.path("stream").asBoolean(false),
                incoming.requestId(),
                incoming.number()));
    }

    @Override
    public Optional<ErrorResponse> error(Fault fault, ReplyRequest request) {
        return responses.of(fault, request.model(), request.key(), request.requestId());
    }

    @Override
    public ReplyFormat format(ReplyRequest request) {
        return new ChatCompletionsFormat(
                new CompletionChunks(
                        mapper,
                        "chatcmpl-sim-" + request.number(),
                        clock.instant().getEpochSecond(),
                        request.model()),
                request);
    }
}
