package dev.rebound.provider.anthropic;

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
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a Messages API stream into a {@link ReplyBuilder}.
 *
 * <p>{@code message_start} opens the reply (its usage counts the input); {@code content_block_start/delta/stop} carry
 * text ({@code text_delta}), thinking ({@code thinking_delta}; signatures are not kept), redacted thinking (a whole
 * {@code redacted_thinking} block) and tool calls ({@code input_json_delta}); {@code message_delta} carries the stop
 * reason and the output usage (cumulative); {@code message_stop} ends the stream; {@code ping} and unknown events are
 * ignored. An {@code error} event is a {@link FailureKind#STREAM_ERROR}, or an {@link FailureKind#ENVELOPE} failure when
 * it comes before {@code message_start} (the server accepted the request and then failed before the reply began).
 *
 * <p>Stop reasons: {@code end_turn}, {@code stop_sequence}, {@code pause_turn} → stop; {@code max_tokens},
 * {@code model_context_window_exceeded} → length; {@code tool_use} → toolUse; {@code refusal} → stop details
 * {@code refusal} with the explanation of {@code stop_details} when there is one.
 */
final class AnthropicStreamParser extends JsonStreamParser {
    private static final Logger log = LoggerFactory.getLogger(AnthropicStreamParser.class);

    /** Block index → kind of the blocks that are open. */
    private final Map<Integer, String> blocks = new HashMap<>();

    private boolean started;
    private boolean stopped;
    private String stopReason;
    private String refusalExplanation;
    private long inputTokens;
    private long cacheRead;
    private long cacheWrite;
    private long outputTokens;

    AnthropicStreamParser(ObjectMapper mapper, ErrorBodies errorBodies, ReplyBuilder reply) {
        super(mapper, errorBodies, reply);
    }

    @Override
    protected boolean onJson(String type, JsonNode event) {
        String kind = event.path("type").asText(type == null ? "" : type);
        switch (kind) {
            case "message_start" -> {
                started = true;
                readUsage(event.path("message").path("usage"));
            }
            case "content_block_start" -> blockStart(event.path("index").asInt(0), event.path("content_block"));
            case "content_block_delta" -> blockDelta(event.path("index").asInt(0), event.path("delta"));
            case "content_block_stop" -> blocks.remove(event.path("index").asInt(0));
            case "message_delta" -> {
                String reason = text(event.path("delta").get("stop_reason"));
                if (reason != null) {
                    stopReason = reason;
                    refusalExplanation =
                            text(event.path("delta").path("stop_details").get("explanation"));
                }
                readUsage(event.path("usage"));
            }
            case "message_stop" -> {
                stopped = true;
                return true;
            }
            case "error" -> {
                problem = error(event);
                return true;
            }
            default -> {
                // ping, and events a newer API version may add
            }
        }
        return false;
    }

    private void blockStart(int index, JsonNode block) {
        String blockType = block.path("type").asText("");
        blocks.put(index, blockType);
        switch (blockType) {
            case "text" -> reply.appendText(text(block.get("text")));
            case "thinking" -> reply.appendThinking(text(block.get("thinking")));
            case "redacted_thinking" -> reply.appendRedactedThinking();
            case "tool_use", "server_tool_use" -> {
                JsonNode input = block.get("input");
                boolean hasInput = input != null && input.isObject() && !input.isEmpty();
                reply.appendToolCall(
                        index, text(block.get("id")), text(block.get("name")), hasInput ? input.toString() : null);
            }
            default -> log.debug("Content block of unknown type '{}' ignored", blockType);
        }
    }

    private void blockDelta(int index, JsonNode delta) {
        switch (delta.path("type").asText("")) {
            case "text_delta" -> reply.appendText(text(delta.get("text")));
            case "thinking_delta" -> reply.appendThinking(text(delta.get("thinking")));
            case "input_json_delta" -> reply.appendToolCall(index, null, null, text(delta.get("partial_json")));
            default -> {
                // signature_delta, citations_delta: nothing a person reads
            }
        }
    }

    /** Usage counts are cumulative: a later report replaces each count it names. */
    private void readUsage(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return;
        }
        inputTokens = usage.path("input_tokens").asLong(inputTokens);
        cacheRead = usage.path("cache_read_input_tokens").asLong(cacheRead);
        cacheWrite = usage.path("cache_creation_input_tokens").asLong(cacheWrite);
        outputTokens = usage.path("output_tokens").asLong(outputTokens);
        reply.usage(new Usage(inputTokens, outputTokens, cacheRead, cacheWrite));
    }

    private StreamProblem error(JsonNode event) {
        ErrorBody error = errorBodies.fromJson(event);
        String said = error.message() != null ? error.message() : quote(event.toString());
        if (!started) {
            return new StreamProblem(
                    FailureKind.ENVELOPE,
                    "The provider reported an error before the reply began: " + said + error.qualifiers(),
                    error);
        }
        return new StreamProblem(
                FailureKind.STREAM_ERROR,
                "The provider reported an error mid-stream: " + said + error.qualifiers(),
                error);
    }

    @Override
    public boolean onCompleteResponse(String body) {
        JsonNode root = EventJson.objectOrNull(mapper, body);
        if (root == null) {
            return false;
        }
        if ("error".equals(text(root.get("type"))) || root.has("error")) {
            ErrorBody error = errorBodies.fromJson(root);
            String said = error.message() != null ? error.message() : quote(root.toString());
            problem = new StreamProblem(
                    FailureKind.STREAM_ERROR,
                    "The provider reported an error in a 200 response: " + said + error.qualifiers(),
                    error);
            return true;
        }
        if (!"message".equals(text(root.get("type"))) || !root.path("content").isArray()) {
            return false;
        }
        started = true;
        readUsage(root.get("usage"));
        int index = 0;
        for (JsonNode block : root.get("content")) {
            blockStart(index++, block);
        }
        stopReason = text(root.get("stop_reason"));
        refusalExplanation = text(root.path("stop_details").get("explanation"));
        stopped = true;
        return true;
    }

    @Override
    public boolean ended() {
        return stopped || stopReason != null;
    }

    @Override
    public String missingEnd() {
        return started ? "no stop_reason or message_stop received" : "no message_start received";
    }

    @Override
    public StreamEnding ending() {
        String reason = stopReason == null ? "end_turn" : stopReason;
        return switch (reason) {
            case "end_turn", "stop_sequence", "pause_turn" -> new StreamEnding.Complete(StopReason.STOP);
            case "max_tokens", "model_context_window_exceeded" -> new StreamEnding.Complete(StopReason.LENGTH);
            case "tool_use" -> new StreamEnding.Complete(StopReason.TOOL_USE);
            case "refusal" ->
                new StreamEnding.Stopped(
                        "The model refused to answer"
                                + (refusalExplanation == null ? " (stop_reason: refusal)" : ": " + refusalExplanation),
                        new StopDetails(
                                StopDetails.REFUSAL,
                                refusalExplanation == null ? "stop_reason: refusal" : refusalExplanation));
            default -> {
                log.debug("Unknown stop_reason '{}' taken as a normal stop", reason);
                yield new StreamEnding.Complete(StopReason.STOP);
            }
        };
    }

    private static String quote(String payload) {
        return EventJson.quote(payload);
    }

    private static String text(JsonNode node) {
        return EventJson.text(node);
    }
}
