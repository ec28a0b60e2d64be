package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.util.Optional;

/**
 * Anthropic's Messages API: {@code POST /v1/messages} with {@code {model, max_tokens, stream, system?, messages}},
 * each message's content a string or an array of {@code text} blocks; the key as {@code x-api-key} (or
 * {@code Authorization: Bearer}, as OAuth clients send it). Errors are {@link AnthropicErrors}', answers
 * {@link AnthropicFormat}'s. Like the other formats it accepts any key, or none, and does not insist on
 * {@code max_tokens}.
 */
final class AnthropicDialect implements WireDialect {
    private final ObjectMapper mapper;
    private final Clock clock;
    private final AnthropicErrors errors;

    AnthropicDialect(ObjectMapper mapper, Clock clock) {
        this.mapper = mapper;
        this.clock = clock;
        this.errors = new AnthropicErrors(mapper, clock);
    }

    @Override
    public Reading read(Incoming incoming) {
        JsonNode body = incoming.body();
        if (body == null || !body.isObject() || !body.path("messages").isArray()) {
            return new Reading.Refused(errors.badRequest(
                    incoming.requestId(),
                    "The request body must be a JSON object with a \"messages\" array (Anthropic Messages format)."));
        }
        JsonNode messages = body.path("messages");
        int promptTokens = body.has("system") ? Tokens.count(PromptText.of(body.path("system"))) : 0;
        for (JsonNode message : messages) {
            promptTokens += Tokens.count(PromptText.of(message.path("content")));
        }
        String key = incoming.headers().getFirst("x-api-key");
        return new Reading.Accepted(new ReplyRequest(
                body,
                body.path("model").asText(SimulatorServer.MODEL_ID),
                key == null || key.isBlank()
                        ? SimulatorServer.bearer(incoming.headers().getFirst("Authorization"))
                        : key.strip(),
                PromptText.last(messages, "role", "user", "content"),
                promptTokens,
                body.path("stream").asBoolean(false),
                incoming.requestId(),
                incoming.number()));
    }

    @Override
    public Optional<ErrorResponse> error(Fault fault, ReplyRequest request) {
        return errors.of(fault, request);
    }

    @Override
    public ReplyFormat format(ReplyRequest request) {
        return new AnthropicFormat(mapper, request);
    }
}
