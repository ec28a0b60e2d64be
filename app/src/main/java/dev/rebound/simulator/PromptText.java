package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads the text of a message's content in the shapes the formats share: a string, or an array of text parts. */
final class PromptText {
    private PromptText() {}

    /** A string content as it is; an array's {@code text} fields joined (parts without text add nothing). */
    static String of(JsonNode content) {
        if (content.isTextual()) {
            return content.textValue();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content) {
            text.append(part.path("text").asText(""));
        }
        return text.toString();
    }

    /** The text of the last element of {@code messages} whose {@code roleField} is {@code role}; "" when none. */
    static String last(JsonNode messages, String roleField, String role, String contentField) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (role.equals(messages.get(i).path(roleField).asText())) {
                return of(messages.get(i).path(contentField));
            }
        }
        return "";
    }
}
