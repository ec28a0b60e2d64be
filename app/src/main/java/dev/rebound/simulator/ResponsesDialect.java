package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * OpenAI's Responses API: {@code POST /v1/responses} with {@code {model, instructions?, input, stream, store,
 * previous_response_id?}}, {@code input} a string or items of {@code {role, content}} whose content is a string or
 * {@code input_text}/{@code output_text} parts; the key as {@code Authorization: Bearer}. Answers are
 * {@link ResponsesFormat}'s.
 *
 * <p>It remembers the ids of the last {@value #MAX_ISSUED} responses it answered with {@code store} on. A request whose
 * {@code previous_response_id} names any other id — never issued, answered with {@code store: false}, issued before a
 * restart, or forgotten — gets OpenAI's 400 {@code previous_response_not_found} before it takes a fault step, so the
 * stale-replay path of a client can be tried offline.
 *
 * <p>Errors are OpenAI's ({@link FaultResponses}), except two the Responses API words its own way: an overload is the
 * 503 "The server is overloaded or not ready yet." (OpenAI has no 529), and a context overflow names {@code input}.
 */
final class ResponsesDialect implements WireDialect {
    /** How many issued response ids are remembered. */
    static final int MAX_ISSUED = 10_000;

    private final ObjectMapper mapper;
    private final Clock clock;
    private final FaultResponses responses;
    private final Map<String, Boolean> issued = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MAX_ISSUED;
        }
    };

    /**
     * Names this server's run in its response ids, so that a restarted simulator never issues an id it issued before
     * (a client holding one must find it stale, as against OpenAI).
     */
    private final String run;

    ResponsesDialect(ObjectMapper mapper, Clock clock, FaultResponses responses) {
        this.mapper = mapper;
        this.clock = clock;
        this.responses = responses;
        this.run = Long.toString(clock.millis(), 36);
    }

    @Override
    public Reading read(Incoming incoming) {
        JsonNode body = incoming.body();
        JsonNode input = body == null ? null : body.path("input");
        if (body == null || !body.isObject() || !(input.isArray() || input.isTextual())) {
            return new Reading.Refused(responses.badRequest("The request body must be a JSON object with an "
                    + "\"input\" array or string (OpenAI Responses format)."));
        }
        JsonNode previous = body.path("previous_response_id");
        if (previous.isTextual() && !issued(previous.textValue())) {
            return new Reading.Refused(responses.openAi(
                    400,
                    Map.of(),
                    "Previous response with id '" + previous.textValue() + "' not found.",
                    "invalid_request_error",
                    "previous_response_id",
                    "previous_response_not_found"));
        }
        int promptTokens = Tokens.count(body.path("instructions").asText(""));
        String prompt;
        if (input.isTextual()) {
            prompt = input.textValue();
            promptTokens += Tokens.count(prompt);
        } else {
            prompt = PromptText.last(input, "role", "user", "content");
            for (JsonNode item : input) {
                promptTokens += Tokens.count(PromptText.of(item.path("content")));
            }
        }
        return new Reading.Accepted(new ReplyRequest(
                body,
                body.path("model").asText(SimulatorServer.MODEL_ID),
                SimulatorServer.bearer(incoming.headers().getFirst("Authorization")),
                prompt,
                promptTokens,
                body.path("stream").asBoolean(false),
                incoming.requestId(),
                incoming.number()));
    }

    @Override
    public Optional<ErrorResponse> error(Fault fault, ReplyRequest request) {
        return switch (fault) {
            case Fault.Overload _ ->
                responses.of(new Fault.ServerError(503), request.model(), request.key(), request.requestId());
            case Fault.ContextOverflow _ ->
                Optional.of(responses.openAi(
                        400,
                        Map.of(),
                        "Your input exceeds the context window of this model. Please adjust your input and try "
                                + "again.",
                        "invalid_request_error",
                        "input",
                        "context_length_exceeded"));
            default -> responses.of(fault, request.model(), request.key(), request.requestId());
        };
    }

    /** The answer's format; the response it creates is remembered unless the request says {@code store: false}. */
    @Override
    public ReplyFormat format(ReplyRequest request) {
        ResponsesFormat format =
                new ResponsesFormat(mapper, request, clock.instant().getEpochSecond(), run);
        if (request.body().path("store").asBoolean(true)) {
            issue(format.responseId());
        }
        return format;
    }

    private synchronized boolean issued(String id) {
        return issued.containsKey(id);
    }

    private synchronized void issue(String id) {
        issued.put(id, Boolean.TRUE);
    }
}
