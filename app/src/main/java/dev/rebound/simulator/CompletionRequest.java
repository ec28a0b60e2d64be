package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one completion request asked for.
 *
 * @param body the request's JSON (it has a {@code messages} array)
 * @param model the model name to answer as
 * @param requestId the id sent back in {@code x-request-id}
 * @param number the request's number since the server started (names the completion)
 */
record CompletionRequest(JsonNode body, String model, String requestId, long number) {
    /** The text of the last user message. */
    String prompt() {
        JsonNode messages = body.path("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            if ("user".equals(messages.get(i).path("role").asText())) {
                return text(messages.get(i).path("content"));
            }
        }
        return "";
    }

    /** The prompt's size in simulator tokens, as usage reports it (4 more per message, as OpenAI counts). */
    int promptTokens() {
        int tokens = 0;
        for (JsonNode message : body.path("messages")) {
            tokens += Tokens.count(text(message.path("content"))) + 4;
        }
        return tokens;
    }

    /** Whether a stream should end with a usage chunk ({@code stream_options.include_usage}). */
    boolean includeUsage() {
        return body.path("stream_options").path("include_usage").asBoolean(false);
    }

    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.textValue();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content) {
            text.append(part.path("text").asText(""));
        }
        return text.toString();
    }

    /** Whether the client asked for a streamed answer. */
    boolean streamed() {
        return body.path("stream").asBoolean(false);
    }
}
