package dev.rebound.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON of one completion in OpenAI's Chat Completions format: the {@code chat.completion.chunk} events of a stream
 * (role, content or refusal deltas, the finish reason, usage) and the {@code chat.completion} object of a request that
 * did not ask to stream.
 *
 * @param mapper builds the JSON
 * @param id the completion's id ({@code chatcmpl-…})
 * @param created its creation time, epoch seconds
 * @param model the model name it answers as
 */
record CompletionChunks(ObjectMapper mapper, String id, long created, String model) {
    static final String FINGERPRINT = "fp_rebound_simulator";

    /** The first chunk: the assistant role, empty content. */
    String role() {
        ObjectNode chunk = chunk();
        choice(chunk).putObject("delta").put("role", "assistant").put("content", "");
        return chunk.toString();
    }

    /** A chunk with a piece of text. */
    String content(String text) {
        ObjectNode chunk = chunk();
        choice(chunk).putObject("delta").put("content", text);
        return chunk.toString();
    }

    /** A chunk with a piece of a refusal. */
    String refusal(String text) {
        ObjectNode chunk = chunk();
        choice(chunk).putObject("delta").putNull("content").put("refusal", text);
        return chunk.toString();
    }

    /** The chunk that ends the choice. */
    String finish(String reason) {
        ObjectNode chunk = chunk();
        ObjectNode choice = choice(chunk);
        choice.putObject("delta");
        choice.put("finish_reason", reason);
        return chunk.toString();
    }

    /** The last chunk of a stream with {@code stream_options.include_usage}: no choices, the usage. */
    String usage(int promptTokens, int completionTokens) {
        ObjectNode chunk = base("chat.completion.chunk");
        chunk.putArray("choices");
        usage(chunk, promptTokens, completionTokens);
        return chunk.toString();
    }

    /** A whole, non-streamed completion. */
    String whole(String content, String refusal, int promptTokens, int completionTokens) {
        ObjectNode root = base("chat.completion");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        if (refusal == null) {
            message.put("content", content);
            message.putNull("refusal");
        } else {
            message.putNull("content");
            message.put("refusal", refusal);
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", "stop");
        usage(root, promptTokens, completionTokens);
        return root.toString();
    }

    private ObjectNode chunk() {
        return base("chat.completion.chunk");
    }

    private ObjectNode base(String object) {
        return mapper.createObjectNode()
                .put("id", id)
                .put("object", object)
                .put("created", created)
                .put("model", model)
                .put("system_fingerprint", FINGERPRINT);
    }

    private static ObjectNode choice(ObjectNode chunk) {
        ArrayNode choices = chunk.putArray("choices");
        ObjectNode choice = choices.addObject().put("index", 0);
        choice.putNull("logprobs");
        choice.putNull("finish_reason");
        return choice;
    }

    private static void usage(ObjectNode root, int promptTokens, int completionTokens) {
        root.putObject("usage")
                .put("prompt_tokens", promptTokens)
                .put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
    }
}
