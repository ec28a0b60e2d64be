package dev.rebound.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.event.SessionEvent;
import dev.rebound.json.WireJson;
import dev.rebound.session.EventScope;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes RPC frames: one JSON object per line, UTF-8, flushed at once. Frames from several threads never interleave.
 * This is the only writer of the protocol stream.
 */
public final class FrameWriter {
    private final OutputStream out;
    private final WireJson wire;
    private final ObjectMapper mapper;
    private boolean broken;

    public FrameWriter(OutputStream out, WireJson wire) {
        this.out = out;
        this.wire = wire;
        this.mapper = wire.mapper();
    }

    /** The ready frame. */
    public void ready() {
        ObjectNode frame = mapper.createObjectNode();
        frame.put("type", "ready");
        frame.put("protocolVersion", 1);
        write(frame);
    }

    /** A success response with optional data. */
    public void success(JsonNode id, String command, JsonNode data) {
        ObjectNode frame = responseFrame(id, command, true);
        if (data != null) {
            frame.set("data", data);
        }
        write(frame);
    }

    /** An error response. */
    public void failure(JsonNode id, String command, String error) {
        ObjectNode frame = responseFrame(id, command, false);
        frame.put("error", error);
        write(frame);
    }

    /** A session event, unscoped (tests and tools that have no session). */
    public void event(SessionEvent event) {
        write(wire.event(event));
    }

    /**
     * A session event with the session it belongs to: {@code sessionId} on every event, and {@code turnId} on every
     * event of a turn (the events that always carried one keep theirs).
     */
    public void event(SessionEvent event, EventScope scope) {
        ObjectNode frame = wire.event(event);
        frame.put("sessionId", scope.sessionId());
        if (scope.turnId() != null && !frame.has("turnId")) {
            frame.put("turnId", scope.turnId());
        }
        write(frame);
    }

    private ObjectNode responseFrame(JsonNode id, String command, boolean success) {
        ObjectNode frame = mapper.createObjectNode();
        if (id != null && !id.isMissingNode()) {
            frame.set("id", id);
        }
        frame.put("type", "response");
        frame.put("command", command);
        frame.put("success", success);
        return frame;
    }

    private synchronized void write(ObjectNode frame) {
        if (broken) {
            return;
        }
        try {
            byte[] bytes = mapper.writeValueAsString(frame).getBytes(StandardCharsets.UTF_8);
            out.write(bytes);
            out.write('\n');
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A frame could not be written as JSON", e);
        } catch (IOException e) {
            broken = true;
            throw new UncheckedIOException("The RPC output stream is closed", e);
        }
    }
}
