package dev.rebound.provider;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reading the JSON payload of one server-sent event, the same way for every wire format. */
public final class EventJson {
    /** Longest part of an unreadable event quoted in a message. */
    public static final int MAX_QUOTED_CHARS = 200;

    private EventJson() {}

    /**
     * An event's payload as a JSON object, or the protocol problem it is.
     *
     * @param object the payload, or null when {@link #problem} says why there is none
     * @param problem null when the payload is a JSON object
     */
    public record Parsed(JsonNode object, StreamProblem problem) {}

    /** Reads a payload (already stripped, not empty) that must be a JSON object. */
    public static Parsed read(ObjectMapper mapper, String payload) {
        JsonNode root;
        try {
            root = mapper.readTree(payload);
        } catch (JacksonException e) {
            return new Parsed(
                    null,
                    StreamProblem.protocol("The server sent a stream event that is not valid JSON ("
                            + ErrorBodies.singleLine(String.valueOf(e.getOriginalMessage()), MAX_QUOTED_CHARS)
                            + "): " + quote(payload)));
        }
        if (root == null || !root.isObject()) {
            return new Parsed(
                    null,
                    StreamProblem.protocol(
                            "The server sent a stream event that is not a JSON object: " + quote(payload)));
        }
        return new Parsed(root, null);
    }

    /** A whole body as a JSON object, or null when it is not one. */
    public static JsonNode objectOrNull(ObjectMapper mapper, String body) {
        try {
            JsonNode root = mapper.readTree(body);
            return root != null && root.isObject() ? root : null;
        } catch (JacksonException e) {
            return null;
        }
    }

    /** A payload cut to one short line for a message. */
    public static String quote(String payload) {
        return ErrorBodies.singleLine(payload, MAX_QUOTED_CHARS);
    }

    /** A node's text when it is a string, else null. */
    public static String text(JsonNode node) {
        return node == null || !node.isTextual() ? null : node.textValue();
    }
}
