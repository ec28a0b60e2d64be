package dev.rebound.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/** Helpers for RPC event frames in end-to-end tests. */
final class EventFrames {
    /** The events that carried their turn before every event named its session and turn. */
    private static final Set<String> ALWAYS_HAD_TURN = Set.of("agent_start", "agent_end", "retry_chain_end");

    private EventFrames() {}

    /**
     * An event frame as its text without the session fields every event now carries ({@code sessionId}, and the
     * {@code turnId} of events that did not always have one), for comparing an event's own fields.
     */
    static String withoutScope(JsonNode frame) {
        ObjectNode copy = frame.deepCopy();
        copy.remove("sessionId");
        if (!ALWAYS_HAD_TURN.contains(frame.path("type").asText())) {
            copy.remove("turnId");
        }
        return copy.toString();
    }
}
