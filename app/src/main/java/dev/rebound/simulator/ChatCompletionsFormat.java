package dev.rebound.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The 200 answers of Chat Completions: {@code data: {chunk}} events — the assistant role, content or refusal deltas,
 * {@code finish_reason: "stop"}, a usage chunk when {@code stream_options.include_usage} asks for it, then
 * {@code data: [DONE]} — or one {@code chat.completion} object.
 *
 * @param chunks the JSON of the completion's chunks
 * @param request the request answered
 */
record ChatCompletionsFormat(CompletionChunks chunks, ReplyRequest request) implements ReplyFormat {
    /** What a refusal says. */
    static final String REFUSAL = "I'm sorry, but I can't help with that request.";

    @Override
    public Map<String, String> headers(boolean streamed) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (streamed) {
            headers.put("Content-Type", "text/event-stream; charset=utf-8");
            headers.put("Cache-Control", "no-cache");
        } else {
            headers.put("Content-Type", "application/json");
        }
        headers.put("x-request-id", request.requestId());
        return headers;
    }

    @Override
    public List<String> start() {
        return List.of(data(chunks.role()));
    }

    @Override
    public String text(String piece) {
        return data(chunks.content(piece));
    }

    @Override
    public List<String> end(String text, int outputTokens) {
        return finish(outputTokens);
    }

    @Override
    public List<String> refusalStart() {
        return start();
    }

    @Override
    public String refusalText() {
        return REFUSAL;
    }

    @Override
    public String refusal(String piece) {
        return data(chunks.refusal(piece));
    }

    @Override
    public List<String> refusalEnd() {
        return finish(Tokens.count(REFUSAL));
    }

    /** OpenAI's error object as the stream's only event, as it reports a failure mid-stream; no {@code [DONE]}. */
    @Override
    public List<String> overloaded() {
        ObjectNode root = chunks.mapper().createObjectNode();
        root.putObject("error")
                .put("message", "The server is overloaded or not ready yet.")
                .put("type", "server_error")
                .putNull("param")
                .putNull("code");
        return List.of(data(root.toString()));
    }

    @Override
    public String whole(String text, int outputTokens) {
        return chunks.whole(text, null, request.promptTokens(), outputTokens);
    }

    @Override
    public String wholeRefusal() {
        return chunks.whole(null, REFUSAL, request.promptTokens(), Tokens.count(REFUSAL));
    }

    private List<String> finish(int completionTokens) {
        List<String> frames = new ArrayList<>();
        frames.add(data(chunks.finish("stop")));
        if (request.body().path("stream_options").path("include_usage").asBoolean(false)) {
            frames.add(data(chunks.usage(request.promptTokens(), completionTokens)));
        }
        frames.add(data("[DONE]"));
        return frames;
    }

    private static String data(String json) {
        return "data: " + json + "\n\n";
    }
}
