package dev.rebound.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The 200 answers of Anthropic's Messages API. A stream is named events: {@code message_start} (input usage),
 * {@code content_block_start} of a {@code text} block, a {@code ping}, {@code content_block_delta}s of
 * {@code text_delta}, {@code content_block_stop}, {@code message_delta} ({@code stop_reason: "end_turn"}, output usage)
 * and {@code message_stop}. A refusal is an empty text block and {@code stop_reason: "refusal"} with
 * {@code stop_details}, as Claude's streaming classifiers end a turn. A whole reply is one {@code "type":"message"}
 * object.
 *
 * @param mapper builds the JSON
 * @param request the request answered
 */
record AnthropicFormat(ObjectMapper mapper, ReplyRequest request) implements ReplyFormat {
    /** What {@code stop_details.explanation} says of a refusal. */
    static final String REFUSAL_EXPLANATION = "This request was refused due to policy.";

    @Override
    public Map<String, String> headers(boolean streamed) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (streamed) {
            headers.put("Content-Type", "text/event-stream; charset=utf-8");
            headers.put("Cache-Control", "no-cache");
        } else {
            headers.put("Content-Type", "application/json");
        }
        headers.put("request-id", request.requestId());
        return headers;
    }

    @Override
    public List<String> start() {
        return List.of(
                messageStart(),
                blockStart(),
                event("ping", mapper.createObjectNode().put("type", "ping")));
    }

    @Override
    public String text(String piece) {
        ObjectNode delta =
                mapper.createObjectNode().put("type", "content_block_delta").put("index", 0);
        delta.putObject("delta").put("type", "text_delta").put("text", piece);
        return event("content_block_delta", delta);
    }

    @Override
    public List<String> end(String text, int outputTokens) {
        ObjectNode delta = mapper.createObjectNode().put("type", "message_delta");
        delta.putObject("delta").put("stop_reason", "end_turn").putNull("stop_sequence");
        delta.putObject("usage").put("output_tokens", outputTokens);
        return List.of(blockStop(), event("message_delta", delta), messageStop());
    }

    @Override
    public List<String> refusalStart() {
        return List.of(messageStart(), blockStart());
    }

    @Override
    public String refusalText() {
        return "";
    }

    @Override
    public String refusal(String piece) {
        return text(piece);
    }

    @Override
    public List<String> refusalEnd() {
        ObjectNode delta = mapper.createObjectNode().put("type", "message_delta");
        ObjectNode stop = delta.putObject("delta").put("stop_reason", "refusal").putNull("stop_sequence");
        stopDetails(stop);
        delta.putObject("usage").put("output_tokens", 1);
        return List.of(blockStop(), event("message_delta", delta), messageStop());
    }

    /** The {@code event: error} Anthropic sends in a 200 before {@code message_start}, then nothing. */
    @Override
    public List<String> overloaded() {
        ObjectNode error = mapper.createObjectNode().put("type", "error");
        error.putObject("error").put("type", "overloaded_error").put("message", "Overloaded");
        return List.of(event("error", error.put("request_id", request.requestId())));
    }

    @Override
    public String whole(String text, int outputTokens) {
        ObjectNode message = message("end_turn", outputTokens);
        message.withArray("content").addObject().put("type", "text").put("text", text);
        return message.toString();
    }

    @Override
    public String wholeRefusal() {
        ObjectNode message = message("refusal", 1);
        stopDetails(message);
        return message.toString();
    }

    private String messageStart() {
        ObjectNode start = mapper.createObjectNode().put("type", "message_start");
        start.set("message", message(null, 1));
        return event("message_start", start);
    }

    /** A message object; without a stop reason it is the one {@code message_start} carries. */
    private ObjectNode message(String stopReason, int outputTokens) {
        ObjectNode message = mapper.createObjectNode()
                .put("id", "msg_sim_" + request.number())
                .put("type", "message")
                .put("role", "assistant")
                .put("model", request.model());
        message.putArray("content");
        message.put("stop_reason", stopReason).putNull("stop_sequence");
        message.putObject("usage")
                .put("input_tokens", request.promptTokens())
                .put("cache_creation_input_tokens", 0)
                .put("cache_read_input_tokens", 0)
                .put("output_tokens", outputTokens);
        return message;
    }

    private void stopDetails(ObjectNode holder) {
        holder.putObject("stop_details").put("type", "refusal").put("explanation", REFUSAL_EXPLANATION);
    }

    private String blockStart() {
        ObjectNode start =
                mapper.createObjectNode().put("type", "content_block_start").put("index", 0);
        start.putObject("content_block").put("type", "text").put("text", "");
        return event("content_block_start", start);
    }

    private String blockStop() {
        return event(
                "content_block_stop",
                mapper.createObjectNode().put("type", "content_block_stop").put("index", 0));
    }

    private String messageStop() {
        return event("message_stop", mapper.createObjectNode().put("type", "message_stop"));
    }

    /** One named event: {@code event: NAME}, its JSON data, a blank line. */
    static String event(String name, ObjectNode data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }
}
