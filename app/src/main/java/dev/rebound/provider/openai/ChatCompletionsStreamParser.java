package dev.rebound.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.provider.ErrorBodies;
import dev.rebound.provider.ErrorBody;
import dev.rebound.provider.EventJson;
import dev.rebound.provider.JsonStreamParser;
import dev.rebound.provider.ReplyBuilder;
import dev.rebound.provider.StreamEnding;
import dev.rebound.provider.StreamProblem;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads Chat Completions chunks into a {@link ReplyBuilder}, one server-sent event at a time.
 *
 * <p>From {@code choices[0].delta}: {@code content} is answer text (also as Mistral's array of typed parts);
 * {@code reasoning_content} (DeepSeek, vLLM) or {@code reasoning} (OpenRouter, Ollama) is thinking; {@code refusal} is
 * collected apart; {@code tool_calls} (and the legacy {@code function_call}) are gathered per index. {@code finish_reason}
 * and {@code usage} (also from a last chunk with no choices) are recorded; {@code data: [DONE]} ends the stream. An
 * event holding an {@code error} object, or of type {@code error}, is a {@link FailureKind#STREAM_ERROR}; an event that is
 * not a JSON object is a {@link FailureKind#PROTOCOL} problem. After either, reading must stop.
 *
 * <p>Not thread-safe: used by the thread that reads the stream.
 */
final class ChatCompletionsStreamParser extends JsonStreamParser {
    private static final Logger log = LoggerFactory.getLogger(ChatCompletionsStreamParser.class);
    private static final int MAX_QUOTED_EVENT_CHARS = 200;
    private static final int LEGACY_FUNCTION_CALL_INDEX = -1;

    private final StringBuilder refusal = new StringBuilder();
    private String finishReason;
    private boolean done;

    ChatCompletionsStreamParser(ObjectMapper mapper, ErrorBodies errorBodies, ReplyBuilder reply) {
        super(mapper, errorBodies, reply);
    }

    /** Handles one chunk; true when it holds an error object, after which reading must stop. */
    @Override
    protected boolean onJson(String type, JsonNode root) {
        JsonNode holder = ErrorBodies.errorHolder(root);
        if (holder != null || "error".equals(type)) {
            problem = providerError("The provider reported an error mid-stream", holder != null ? holder : root);
            return true;
        }
        readChunk(root, "delta");
        return false;
    }

    /**
     * Handles a whole response that is not an event stream (a proxy that ignored {@code stream: true}).
     *
     * @return true when it was a chat completion or an error object (now recorded); false when it is neither, and
     *     nothing was recorded
     */
    @Override
    public boolean onCompleteResponse(String body) {
        JsonNode root = EventJson.objectOrNull(mapper, body);
        if (root == null) {
            return false;
        }
        if (hasError(root)) {
            problem = providerError("The provider reported an error in a 200 response", root);
            return true;
        }
        JsonNode choices = root.get("choices");
        if (choices == null
                || !choices.isArray()
                || choices.isEmpty()
                || !firstChoice(choices).has("message")) {
            return false;
        }
        readChunk(root, "message");
        done = true;
        return true;
    }

    /** Whether the stream sent its terminal signal: a {@code finish_reason} or {@code [DONE]}. */
    @Override
    protected boolean onDone() {
        done = true;
        return true;
    }

    @Override
    public boolean ended() {
        return finishReason != null || done;
    }

    @Override
    public String missingEnd() {
        return "no finish_reason or [DONE] received";
    }

    @Override
    public StreamEnding ending() {
        if (!refusal.isEmpty()) {
            return new StreamEnding.Stopped(
                    "The model refused to answer: " + refusal,
                    new StopDetails(StopDetails.REFUSAL, refusal.toString()));
        }
        return switch (finishReason == null ? "stop" : finishReason) {
            case "stop", "end_turn", "eos" -> new StreamEnding.Complete(StopReason.STOP);
            case "length", "max_tokens" -> new StreamEnding.Complete(StopReason.LENGTH);
            case "tool_calls", "function_call" -> new StreamEnding.Complete(StopReason.TOOL_USE);
            case "content_filter" ->
                new StreamEnding.Stopped(
                        "The provider's content filter stopped the reply after " + reply.characters()
                                + " characters (finish_reason: content_filter)",
                        new StopDetails(StopDetails.SENSITIVE, "finish_reason: content_filter"));
            case "error" ->
                new StreamEnding.Failed(new StreamProblem(
                        FailureKind.STREAM_ERROR,
                        "The provider ended the reply with finish_reason 'error' after " + reply.characters()
                                + " characters",
                        ErrorBody.EMPTY));
            case "insufficient_system_resource" ->
                new StreamEnding.Failed(new StreamProblem(
                        FailureKind.STREAM_ERROR,
                        "The provider ran out of capacity while replying "
                                + "(finish_reason: insufficient_system_resource) after " + reply.characters()
                                + " characters",
                        new ErrorBody(null, null, finishReason, null)));
            default -> {
                log.debug("Unknown finish_reason '{}' taken as a normal stop", finishReason);
                yield new StreamEnding.Complete(StopReason.STOP);
            }
        };
    }

    private void readChunk(JsonNode root, String payloadField) {
        JsonNode usage = root.get("usage");
        if (usage != null && usage.isObject()) {
            reply.usage(usage(usage));
        }
        JsonNode choices = root.get("choices");
        if (choices == null || !choices.isArray() || choices.isEmpty()) {
            return;
        }
        JsonNode choice = firstChoice(choices);
        JsonNode payload = choice.get(payloadField);
        if (payload != null && payload.isObject()) {
            readPayload(payload);
        }
        String finish = text(choice.get("finish_reason"));
        if (finish != null) {
            finishReason = finish;
        }
    }

    private void readPayload(JsonNode payload) {
        String reasoning = text(payload.get("reasoning_content"));
        reply.appendThinking(reasoning != null && !reasoning.isEmpty() ? reasoning : text(payload.get("reasoning")));
        readContent(payload.get("content"));
        String refused = text(payload.get("refusal"));
        if (refused != null) {
            refusal.append(refused);
        }
        JsonNode toolCalls = payload.get("tool_calls");
        if (toolCalls != null && toolCalls.isArray()) {
            int position = 0;
            for (JsonNode call : toolCalls) {
                JsonNode function = call.path("function");
                reply.appendToolCall(
                        call.path("index").asInt(position),
                        text(call.get("id")),
                        text(function.get("name")),
                        arguments(function.get("arguments")));
                position++;
            }
        }
        JsonNode functionCall = payload.get("function_call");
        if (functionCall != null && functionCall.isObject()) {
            reply.appendToolCall(
                    LEGACY_FUNCTION_CALL_INDEX,
                    null,
                    text(functionCall.get("name")),
                    arguments(functionCall.get("arguments")));
        }
    }

    /** Content is a string, or (Mistral) an array of {@code text} and {@code thinking} parts. */
    private void readContent(JsonNode content) {
        if (content == null || content.isNull()) {
            return;
        }
        if (content.isTextual()) {
            reply.appendText(content.textValue());
            return;
        }
        if (!content.isArray()) {
            return;
        }
        for (JsonNode part : content) {
            String type = text(part.get("type"));
            if ("text".equals(type)) {
                reply.appendText(text(part.get("text")));
            } else if ("thinking".equals(type)) {
                JsonNode thinking = part.get("thinking");
                if (thinking != null && thinking.isArray()) {
                    thinking.forEach(piece -> reply.appendThinking(text(piece.get("text"))));
                } else {
                    reply.appendThinking(text(thinking));
                }
            }
        }
    }

    private static Usage usage(JsonNode usage) {
        long prompt = usage.path("prompt_tokens").asLong(0);
        long completion = usage.path("completion_tokens").asLong(0);
        long cached = usage.path("prompt_tokens_details").path("cached_tokens").asLong(0);
        if (cached == 0) {
            cached = usage.path("prompt_cache_hit_tokens").asLong(0);
        }
        return new Usage(Math.max(0, prompt - cached), completion, cached, 0);
    }

    private StreamProblem providerError(String prefix, JsonNode root) {
        ErrorBody error = errorBodies.fromJson(root);
        String said = error.message() != null ? error.message() : quote(root.toString());
        return new StreamProblem(FailureKind.STREAM_ERROR, prefix + ": " + said + error.qualifiers(), error);
    }

    private static StreamProblem protocol(String message) {
        return StreamProblem.protocol(message);
    }

    private static boolean hasError(JsonNode root) {
        JsonNode error = root.get("error");
        return error != null && !error.isNull();
    }

    private static JsonNode firstChoice(JsonNode choices) {
        for (JsonNode choice : choices) {
            if (choice.path("index").asInt(0) == 0) {
                return choice;
            }
        }
        return choices.get(0);
    }

    private static String quote(String payload) {
        return ErrorBodies.singleLine(payload, MAX_QUOTED_EVENT_CHARS);
    }

    /** Tool arguments are a JSON text; a few servers send the object itself. */
    private static String arguments(JsonNode node) {
        return node != null && node.isContainerNode() ? node.toString() : text(node);
    }

    private static String text(JsonNode node) {
        return node == null || !node.isTextual() ? null : node.textValue();
    }
}
