package dev.rebound.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A {@link StreamParser} for wire formats whose events carry one JSON object each (all of them): blank events are
 * skipped, an event that is not a JSON object stops the stream as a {@link dev.rebound.transcript.FailureKind#PROTOCOL}
 * problem, and every other event goes to {@link #onJson}.
 */
public abstract class JsonStreamParser implements StreamParser {
    protected final ObjectMapper mapper;
    protected final ErrorBodies errorBodies;
    protected final ReplyBuilder reply;
    /** The error or protocol problem that stopped the stream, or null; set by subclasses for the provider's errors. */
    protected StreamProblem problem;

    protected JsonStreamParser(ObjectMapper mapper, ErrorBodies errorBodies, ReplyBuilder reply) {
        this.mapper = mapper;
        this.errorBodies = errorBodies;
        this.reply = reply;
    }

    @Override
    public final boolean onEvent(String type, String data) {
        String payload = data == null ? "" : data.strip();
        if (payload.isEmpty()) {
            return false;
        }
        if (payload.equals("[DONE]")) {
            return onDone();
        }
        EventJson.Parsed parsed = EventJson.read(mapper, payload);
        if (parsed.problem() != null) {
            problem = parsed.problem();
            return true;
        }
        return onJson(type, parsed.object());
    }

    /**
     * Handles one event's JSON object.
     *
     * @param type the event's {@code event:} name, or null
     * @return true when reading must stop
     */
    protected abstract boolean onJson(String type, JsonNode event);

    /** Handles {@code data: [DONE]}; ignored unless the format ends with it. */
    protected boolean onDone() {
        return false;
    }

    @Override
    public StreamProblem problem() {
        return problem;
    }
}
