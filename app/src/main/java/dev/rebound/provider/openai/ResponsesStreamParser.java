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

/**
 * Reads a Responses API stream into a {@link ReplyBuilder}.
 *
 * <p>{@code response.created} names the response; {@code response.output_text.delta} is text;
 * {@code response.reasoning_summary_text.delta} and {@code response.reasoning_text.delta} are thinking;
 * {@code response.refusal.delta} is collected apart; function calls are gathered from {@code response.output_item.added}
 * and {@code response.function_call_arguments.delta}. The stream ends with one of {@code response.completed} (usage
 * read), {@code response.incomplete} ({@code max_output_tokens} → length, {@code content_filter} → stop details
 * {@code sensitive}) or {@code response.failed} (its {@code response.error} → {@link FailureKind#STREAM_ERROR}). An
 * {@code error} event (fields nested under {@code error}, or at the top level as the reference shows them) is a
 * stream error too. There is no {@code [DONE]}.
 */
final class ResponsesStreamParser extends JsonStreamParser {

    private final StringBuilder refusal = new StringBuilder();
    private String responseId;
    private StreamEnding ending;
    private boolean toolCalls;

    ResponsesStreamParser(ObjectMapper mapper, ErrorBodies errorBodies, ReplyBuilder reply) {
        super(mapper, errorBodies, reply);
    }

    /** The id the server gave the response ({@code resp_…}), or null. */
    String responseId() {
        return responseId;
    }

    @Override
    protected boolean onJson(String type, JsonNode event) {
        return handle(event.path("type").asText(type == null ? "" : type), event);
    }

    private boolean handle(String kind, JsonNode event) {
        switch (kind) {
            case "response.created", "response.in_progress", "response.queued" -> noteResponse(event.path("response"));
            case "response.output_text.delta" -> reply.appendText(text(event.get("delta")));
            case "response.reasoning_summary_text.delta", "response.reasoning_text.delta" ->
                reply.appendThinking(text(event.get("delta")));
            case "response.reasoning_summary_part.added" -> {
                if (event.path("summary_index").asInt(0) > 0) {
                    reply.appendThinking("\n\n");
                }
            }
            case "response.refusal.delta" -> {
                String delta = text(event.get("delta"));
                if (delta != null) {
                    refusal.append(delta);
                }
            }
            case "response.output_item.added" -> {
                JsonNode item = event.path("item");
                if ("function_call".equals(text(item.get("type")))) {
                    toolCalls = true;
                    reply.appendToolCall(
                            event.path("output_index").asInt(0),
                            text(item.get("call_id")),
                            text(item.get("name")),
                            null);
                }
            }
            case "response.function_call_arguments.delta" ->
                reply.appendToolCall(event.path("output_index").asInt(0), null, null, text(event.get("delta")));
            case "response.completed" -> {
                finish(event.path("response"));
                ending = !refusal.isEmpty()
                        ? new StreamEnding.Stopped(
                                "The model refused to answer: " + refusal,
                                new StopDetails(StopDetails.REFUSAL, refusal.toString()))
                        : new StreamEnding.Complete(toolCalls ? StopReason.TOOL_USE : StopReason.STOP);
                return true;
            }
            case "response.incomplete" -> {
                finish(event.path("response"));
                ending = incomplete(event.path("response"));
                return true;
            }
            case "response.failed" -> {
                finish(event.path("response"));
                ending = new StreamEnding.Failed(failed(event.path("response")));
                return true;
            }
            case "error" -> {
                problem = error(event);
                return true;
            }
            default -> {
                // output_item.done, content_part.added, output_text.done…: nothing new
            }
        }
        return false;
    }

    private void noteResponse(JsonNode response) {
        String id = text(response.get("id"));
        if (id != null) {
            responseId = id;
        }
    }

    private void finish(JsonNode response) {
        noteResponse(response);
        JsonNode usage = response.get("usage");
        if (usage != null && usage.isObject()) {
            long input = usage.path("input_tokens").asLong(0);
            long cached =
                    usage.path("input_tokens_details").path("cached_tokens").asLong(0);
            reply.usage(new Usage(
                    Math.max(0, input - cached), usage.path("output_tokens").asLong(0), cached, 0));
        }
    }

    private StreamEnding incomplete(JsonNode response) {
        String reason = text(response.path("incomplete_details").get("reason"));
        if ("content_filter".equals(reason)) {
            return new StreamEnding.Stopped(
                    "The provider's content filter stopped the reply after " + reply.characters()
                            + " characters (incomplete_details.reason: content_filter)",
                    new StopDetails(StopDetails.SENSITIVE, "incomplete_details.reason: content_filter"));
        }
        return new StreamEnding.Complete(StopReason.LENGTH);
    }

    private StreamProblem failed(JsonNode response) {
        JsonNode error = response.get("error");
        ErrorBody body = error == null || !error.isObject()
                ? ErrorBody.EMPTY
                : errorBodies.fromJson(mapper.createObjectNode().set("error", error));
        String said = body.message() != null ? body.message() : "no error was given";
        return new StreamProblem(
                FailureKind.STREAM_ERROR,
                "The provider reported the response as failed (response.failed): " + said + body.qualifiers(),
                body);
    }

    private StreamProblem error(JsonNode event) {
        ErrorBody body = event.path("error").isObject()
                ? errorBodies.fromJson(event)
                : new ErrorBody(text(event.get("message")), null, text(event.get("code")), null);
        String said = body.message() != null ? body.message() : quote(event.toString());
        return new StreamProblem(
                FailureKind.STREAM_ERROR,
                "The provider reported an error mid-stream: " + said + body.qualifiers(),
                body);
    }

    @Override
    public boolean onCompleteResponse(String body) {
        JsonNode root = EventJson.objectOrNull(mapper, body);
        if (root == null || !"response".equals(text(root.get("object")))) {
            return false;
        }
        noteResponse(root);
        for (JsonNode item : root.path("output")) {
            if ("message".equals(text(item.get("type")))) {
                for (JsonNode part : item.path("content")) {
                    if ("output_text".equals(text(part.get("type")))) {
                        reply.appendText(text(part.get("text")));
                    } else if ("refusal".equals(text(part.get("type")))) {
                        refusal.append(text(part.get("refusal")));
                    }
                }
            }
        }
        String status = text(root.get("status"));
        return handle(
                "failed".equals(status)
                        ? "response.failed"
                        : "incomplete".equals(status) ? "response.incomplete" : "response.completed",
                mapper.createObjectNode().set("response", root));
    }

    @Override
    public boolean ended() {
        return ending != null;
    }

    @Override
    public StreamEnding ending() {
        return ending;
    }

    @Override
    public String missingEnd() {
        return "no response.completed received";
    }

    private static String quote(String payload) {
        return EventJson.quote(payload);
    }

    private static String text(JsonNode node) {
        return EventJson.text(node);
    }
}
