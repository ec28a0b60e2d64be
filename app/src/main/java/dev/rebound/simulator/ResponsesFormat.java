package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The 200 answers of OpenAI's Responses API. A stream is named events numbered by {@code sequence_number} from 0:
 * {@code response.created} and {@code response.in_progress} ({@code resp_sim_<run>_N}), {@code response.output_item.added}
 * (a message), {@code response.content_part.added}, {@code response.output_text.delta}s,
 * {@code response.output_text.done}, {@code response.content_part.done}, {@code response.output_item.done} and
 * {@code response.completed} with the whole output and the usage; no {@code [DONE]}. A refusal streams a
 * {@code refusal} part of {@code response.refusal.delta}s instead. A whole reply is one {@code "object":"response"}.
 * One instance per request: it counts the sequence numbers.
 */
final class ResponsesFormat implements ReplyFormat {
    private final ObjectMapper mapper;
    private final ReplyRequest request;
    private final long createdAt;
    private final String run;
    private int sequence;

    /**
     * @param mapper builds the JSON
     * @param request the request answered
     * @param createdAt the response's creation time, epoch seconds
     * @param run names the server's run in the id
     */
    ResponsesFormat(ObjectMapper mapper, ReplyRequest request, long createdAt, String run) {
        this.mapper = mapper;
        this.request = request;
        this.createdAt = createdAt;
        this.run = run;
    }

    /** The id of the response this answer creates: {@code resp_sim_<run>_N}. */
    String responseId() {
        return "resp_sim_" + run + "_" + request.number();
    }

    private String itemId() {
        return "msg_sim_" + request.number();
    }

    @Override
    public Map<String, String> headers(boolean streamed) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", streamed ? "text/event-stream; charset=utf-8" : "application/json");
        headers.put("x-request-id", request.requestId());
        return headers;
    }

    @Override
    public List<String> start() {
        return opening(part("output_text"));
    }

    @Override
    public String text(String piece) {
        return event(
                "response.output_text.delta", inPart().put("delta", piece).set("logprobs", mapper.createArrayNode()));
    }

    @Override
    public List<String> end(String text, int outputTokens) {
        ObjectNode part = part("output_text").put("text", text);
        return List.of(
                event(
                        "response.output_text.done",
                        inPart().put("text", text).set("logprobs", mapper.createArrayNode())),
                event("response.content_part.done", inPart().set("part", part)),
                event("response.output_item.done", item().set("item", message("completed", part))),
                completed(part, outputTokens));
    }

    @Override
    public List<String> refusalStart() {
        return opening(mapper.createObjectNode().put("type", "refusal").put("refusal", ""));
    }

    @Override
    public String refusalText() {
        return ChatCompletionsFormat.REFUSAL;
    }

    @Override
    public String refusal(String piece) {
        return event("response.refusal.delta", inPart().put("delta", piece));
    }

    @Override
    public List<String> refusalEnd() {
        String text = ChatCompletionsFormat.REFUSAL;
        ObjectNode part = mapper.createObjectNode().put("type", "refusal").put("refusal", text);
        return List.of(
                event("response.refusal.done", inPart().put("refusal", text)),
                event("response.content_part.done", inPart().set("part", part)),
                event("response.output_item.done", item().set("item", message("completed", part))),
                completed(part, Tokens.count(text)));
    }

    /** The response is created, then an {@code error} event (fields nested, as sent) ends the stream. */
    @Override
    public List<String> overloaded() {
        ObjectNode error = mapper.createObjectNode();
        error.putObject("error")
                .put("type", "server_error")
                .put("code", "server_error")
                .put(
                        "message",
                        "An error occurred while processing your request. You can retry your request, or contact us "
                                + "through our help center at help.openai.com if the error persists. Please include "
                                + "the request ID " + request.requestId() + " in your message.")
                .putNull("param");
        List<String> frames = new ArrayList<>(created());
        frames.add(event("error", error));
        return frames;
    }

    @Override
    public String whole(String text, int outputTokens) {
        return response("completed", part("output_text").put("text", text), outputTokens)
                .toString();
    }

    @Override
    public String wholeRefusal() {
        ObjectNode part =
                mapper.createObjectNode().put("type", "refusal").put("refusal", ChatCompletionsFormat.REFUSAL);
        return response("completed", part, Tokens.count(ChatCompletionsFormat.REFUSAL))
                .toString();
    }

    private List<String> opening(ObjectNode emptyPart) {
        List<String> frames = new ArrayList<>(created());
        frames.add(event("response.output_item.added", item().set("item", message("in_progress", null))));
        frames.add(event("response.content_part.added", inPart().set("part", emptyPart)));
        return frames;
    }

    /** {@code response.created} and {@code response.in_progress}. */
    private List<String> created() {
        return List.of(
                event("response.created", mapper.createObjectNode().set("response", response("in_progress", null, 0))),
                event(
                        "response.in_progress",
                        mapper.createObjectNode().set("response", response("in_progress", null, 0))));
    }

    private String completed(ObjectNode part, int outputTokens) {
        return event(
                "response.completed",
                mapper.createObjectNode().set("response", response("completed", part, outputTokens)));
    }

    /** The response object; in progress it has no output and no usage. */
    private ObjectNode response(String status, ObjectNode part, int outputTokens) {
        ObjectNode response = mapper.createObjectNode()
                .put("id", responseId())
                .put("object", "response")
                .put("created_at", createdAt)
                .put("status", status)
                .put("background", false)
                .putNull("error")
                .putNull("incomplete_details");
        JsonNode instructions = request.body().get("instructions");
        response.set("instructions", instructions == null ? mapper.nullNode() : instructions);
        response.put("model", request.model());
        var output = response.putArray("output");
        if (part != null) {
            output.add(message(status, part));
        }
        response.put("parallel_tool_calls", true);
        JsonNode previous = request.body().get("previous_response_id");
        response.set("previous_response_id", previous == null ? mapper.nullNode() : previous);
        response.put("store", request.body().path("store").asBoolean(true));
        if (part == null) {
            response.putNull("usage");
        } else {
            ObjectNode usage = response.putObject("usage").put("input_tokens", request.promptTokens());
            usage.putObject("input_tokens_details").put("cached_tokens", 0);
            usage.put("output_tokens", outputTokens);
            usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
            usage.put("total_tokens", request.promptTokens() + outputTokens);
        }
        response.putObject("metadata");
        return response;
    }

    private ObjectNode message(String status, ObjectNode part) {
        ObjectNode message = mapper.createObjectNode()
                .put("id", itemId())
                .put("type", "message")
                .put("status", status);
        var content = message.putArray("content");
        if (part != null) {
            content.add(part);
        }
        return message.put("role", "assistant");
    }

    private ObjectNode part(String type) {
        ObjectNode part = mapper.createObjectNode().put("type", type);
        part.putArray("annotations");
        part.putArray("logprobs");
        return part.put("text", "");
    }

    /** The fields of an event about the output item. */
    private ObjectNode item() {
        return mapper.createObjectNode().put("output_index", 0);
    }

    /** The fields of an event about the item's content part. */
    private ObjectNode inPart() {
        return mapper.createObjectNode()
                .put("item_id", itemId())
                .put("output_index", 0)
                .put("content_index", 0);
    }

    /** One named event: its type and sequence number first, then {@code fields}. */
    private String event(String type, ObjectNode fields) {
        ObjectNode data = mapper.createObjectNode().put("type", type).put("sequence_number", sequence++);
        data.setAll(fields);
        return "event: " + type + "\ndata: " + data + "\n\n";
    }
}
