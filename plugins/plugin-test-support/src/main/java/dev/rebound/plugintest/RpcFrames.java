package dev.rebound.plugintest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.api.AgentEnd;
import dev.rebound.api.AgentStart;
import dev.rebound.api.AssistantMessage;
import dev.rebound.api.AutoRetryEnd;
import dev.rebound.api.AutoRetryStart;
import dev.rebound.api.ChatMessage;
import dev.rebound.api.ContentBlock;
import dev.rebound.api.CredentialSwitched;
import dev.rebound.api.DeltaKind;
import dev.rebound.api.ErrorKind;
import dev.rebound.api.FailureKind;
import dev.rebound.api.MessageEnd;
import dev.rebound.api.MessageStart;
import dev.rebound.api.MessageUpdate;
import dev.rebound.api.ModelChangeReason;
import dev.rebound.api.ModelChanged;
import dev.rebound.api.ModelRef;
import dev.rebound.api.Notice;
import dev.rebound.api.NoticeLevel;
import dev.rebound.api.ProviderFailure;
import dev.rebound.api.RetryAttempt;
import dev.rebound.api.RetryChainEnd;
import dev.rebound.api.RetryEndReason;
import dev.rebound.api.RetryFallbackApplied;
import dev.rebound.api.RetryFallbackReverted;
import dev.rebound.api.RetryFallbackSucceeded;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionRef;
import dev.rebound.api.StopDetails;
import dev.rebound.api.StopReason;
import dev.rebound.api.Usage;
import dev.rebound.api.UserMessage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the event frames of RPC mode (docs/rpc.md) as the published records a plugin receives, so a transcript of a
 * real {@code rebound --rpc} run can be replayed into a listener. A frame that is not an event (ready, response)
 * reads as null; an unknown event type fails, since the kit must know every event the app emits.
 */
public final class RpcFrames {

    private RpcFrames() {}

    /**
     * The event of one frame, in the chat {@code session} (RPC frames carry only the session id).
     *
     * @param frame one line of RPC output, parsed
     * @param session the chat to name in the event
     * @return the event, or null for a frame that is not an event
     */
    public static SessionEvent event(JsonNode frame, SessionRef session) {
        String turn = text(frame, "turnId");
        return switch (frame.path("type").asText()) {
            case "ready", "response" -> null;
            case "agent_start" -> new AgentStart(session, turn);
            case "agent_end" ->
                new AgentEnd(session, turn, frame.path("willRetry").asBoolean());
            case "message_start" -> new MessageStart(session, turn, message(frame.path("message")));
            case "message_end" -> new MessageEnd(session, turn, message(frame.path("message")));
            case "message_update" ->
                new MessageUpdate(
                        session,
                        turn,
                        text(frame, "messageId"),
                        wire(DeltaKind.values(), text(frame, "kind")),
                        text(frame, "delta"));
            case "model_changed" ->
                new ModelChanged(
                        session,
                        turn,
                        modelObject(frame.path("from")),
                        modelObject(frame.path("model")),
                        wire(ModelChangeReason.values(), text(frame, "reason")));
            case "notice" ->
                new Notice(session, turn, wire(NoticeLevel.values(), text(frame, "level")), text(frame, "message"));
            case "auto_retry_start" ->
                new AutoRetryStart(
                        session,
                        turn,
                        frame.path("attempt").asInt(),
                        frame.path("maxAttempts").asInt(),
                        frame.path("delayMs").asLong(),
                        text(frame, "errorMessage"),
                        wire(ErrorKind.values(), text(frame, "errorKind")),
                        selector(text(frame, "model")),
                        text(frame, "credential"),
                        frame.path("retryAt").asLong());
            case "auto_retry_end" ->
                new AutoRetryEnd(
                        session,
                        turn,
                        frame.path("success").asBoolean(),
                        frame.path("attempt").asInt(),
                        text(frame, "finalError"),
                        wire(RetryEndReason.values(), text(frame, "reason")));
            case "retry_chain_end" ->
                new RetryChainEnd(
                        session,
                        turn,
                        attempts(frame.path("attempts")),
                        wire(RetryEndReason.values(), text(frame, "reason")),
                        text(frame, "finalError"),
                        frame.path("startedAt").asLong(),
                        frame.path("endedAt").asLong());
            case "credential_switched" ->
                new CredentialSwitched(session, turn, text(frame, "provider"), text(frame, "from"), text(frame, "to"));
            case "retry_fallback_applied" ->
                new RetryFallbackApplied(
                        session, turn, selector(text(frame, "from")), selector(text(frame, "to")), text(frame, "role"));
            case "retry_fallback_succeeded" ->
                new RetryFallbackSucceeded(session, turn, selector(text(frame, "model")), text(frame, "role"));
            case "retry_fallback_reverted" ->
                new RetryFallbackReverted(session, turn, selector(text(frame, "from")), selector(text(frame, "to")));
            default -> throw new IllegalArgumentException("not an event the kit knows: " + frame);
        };
    }

    private static ChatMessage message(JsonNode m) {
        if ("user".equals(text(m, "role"))) {
            return new UserMessage(
                    text(m, "id"), text(m, "text"), m.path("timestamp").asLong());
        }
        List<ContentBlock> content = new ArrayList<>();
        for (JsonNode block : m.path("content")) {
            content.add(
                    switch (block.path("type").asText()) {
                        case "thinking" ->
                            new ContentBlock.Thinking(
                                    text(block, "thinking"),
                                    block.path("redacted").asBoolean());
                        case "toolCall" ->
                            new ContentBlock.ToolCall(text(block, "id"), text(block, "name"), text(block, "arguments"));
                        default -> new ContentBlock.Text(text(block, "text"));
                    });
        }
        JsonNode u = m.path("usage");
        Usage usage = new Usage(
                u.path("inputTokens").asLong(),
                u.path("outputTokens").asLong(),
                u.path("cacheReadTokens").asLong(),
                u.path("cacheWriteTokens").asLong());
        JsonNode d = m.path("stopDetails");
        StopDetails details = d.isObject() ? new StopDetails(text(d, "type"), text(d, "explanation")) : null;
        return new AssistantMessage(
                text(m, "id"),
                content,
                new ModelRef(text(m, "provider"), text(m, "model")),
                text(m, "api"),
                text(m, "credential"),
                usage,
                wire(StopReason.values(), text(m, "stopReason")),
                text(m, "errorMessage"),
                details,
                failure(m.path("failure")),
                m.path("timestamp").asLong());
    }

    private static ProviderFailure failure(JsonNode f) {
        if (!f.isObject()) {
            return null;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        f.path("headers")
                .properties()
                .forEach(e -> headers.put(e.getKey(), e.getValue().asText()));
        return new ProviderFailure(
                wire(FailureKind.values(), text(f, "kind")),
                f.hasNonNull("httpStatus") ? f.path("httpStatus").asInt() : null,
                text(f, "errorType"),
                text(f, "errorCode"),
                headers);
    }

    private static List<RetryAttempt> attempts(JsonNode list) {
        List<RetryAttempt> attempts = new ArrayList<>();
        for (JsonNode a : list) {
            attempts.add(new RetryAttempt(
                    a.path("attempt").asInt(),
                    wire(ErrorKind.values(), text(a, "errorKind")),
                    a.hasNonNull("httpStatus") ? a.path("httpStatus").asInt() : null,
                    selector(text(a, "model")),
                    text(a, "credential"),
                    a.hasNonNull("delayMs") ? a.path("delayMs").asLong() : null,
                    text(a, "errorMessage")));
        }
        return attempts;
    }

    private static ModelRef modelObject(JsonNode m) {
        return m.isObject() ? new ModelRef(text(m, "provider"), text(m, "id")) : null;
    }

    private static ModelRef selector(String selector) {
        if (selector == null) {
            return null;
        }
        int slash = selector.indexOf('/');
        return new ModelRef(selector.substring(0, Math.max(slash, 0)), selector.substring(slash + 1));
    }

    private static <E extends Enum<E>> E wire(E[] values, String name) {
        if (name == null) {
            return null;
        }
        return Arrays.stream(values)
                .filter(v -> v.toString().equals(name))
                .findFirst()
                .orElseThrow(() ->
                        new IllegalArgumentException("unknown value '" + name + "' among " + Arrays.toString(values)));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isNull() || value.isMissingNode() ? null : value.asText();
    }
}
