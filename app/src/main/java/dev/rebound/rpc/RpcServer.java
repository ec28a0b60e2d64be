package dev.rebound.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.api.ChatMessage;
import dev.rebound.api.ModelRef;
import dev.rebound.json.WireJson;
import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.session.SessionFactory;
import dev.rebound.session.SessionState;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.Settings;
import dev.rebound.settings.SettingsProblem;
import dev.rebound.settings.SettingsStore;
import dev.rebound.settings.SettingsUpdate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Headless RPC mode (rpc.md): reads JSON-lines commands, answers each with a response frame, and writes the current
 * session's events as they happen. At end of input it lets the running turn (and any retry chain) finish, then returns.
 */
public final class RpcServer {
    private static final Logger LOG = LoggerFactory.getLogger(RpcServer.class);
    private static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    private final InputStream in;
    private final FrameWriter out;
    private final SessionFactory sessions;
    private final SettingsStore settings;
    private final ObjectMapper mapper;
    private final Object sessionLock = new Object();
    private ChatSession session;
    private AutoCloseable subscription;

    public RpcServer(InputStream in, FrameWriter out, WireJson wire, SessionFactory sessions, SettingsStore settings) {
        this.in = in;
        this.out = out;
        this.sessions = sessions;
        this.settings = settings;
        this.mapper = wire.mapper();
    }

    /**
     * Serves until end of input.
     *
     * @param startupNotices notices to show once the session is ready (settings problems...), as (level, message)
     * @return the process exit code
     */
    public int run(List<String[]> startupNotices) {
        attach(sessions.create());
        out.ready();
        for (String[] notice : startupNotices) {
            current().notice(notice[0], notice[1]);
        }
        LineReader reader = new LineReader(in, MAX_LINE_BYTES);
        try {
            while (true) {
                LineReader.Line line = reader.next();
                if (line instanceof LineReader.Line.End) {
                    break;
                }
                if (line instanceof LineReader.Line.TooLong tooLong) {
                    out.failure(null, "parse", "The line is " + tooLong.length() + " bytes long; the limit is "
                            + MAX_LINE_BYTES + " bytes. It was ignored.");
                    continue;
                }
                String text = ((LineReader.Line.Text) line).text();
                if (!text.isBlank()) {
                    handleLine(text);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("RPC input or output failed; finishing the running turn and stopping", e);
        }
        current().idle().join();
        current().close();
        return 0;
    }

    /** Aborts what runs (SIGTERM/SIGINT). */
    public void shutdown() {
        ChatSession s;
        synchronized (sessionLock) {
            s = session;
        }
        if (s != null) {
            s.abort();
            s.idle().orTimeout(5, java.util.concurrent.TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
    }

    private void handleLine(String text) {
        JsonNode command;
        try {
            command = mapper.readTree(text);
        } catch (JsonProcessingException e) {
            out.failure(null, "parse", "Not valid JSON: " + e.getOriginalMessage());
            return;
        }
        if (command == null || !command.isObject()) {
            out.failure(null, "parse", "A command must be a JSON object, e.g. {\"type\":\"get_state\"}");
            return;
        }
        JsonNode id = command.get("id");
        JsonNode typeNode = command.get("type");
        if (typeNode == null || !typeNode.isTextual()) {
            out.failure(id, "unknown", "The command has no \"type\" field; e.g. {\"type\":\"prompt\",\"message\":\"hi\"}");
            return;
        }
        String type = typeNode.asText();
        try {
            dispatch(type, id, command);
        } catch (IllegalArgumentException e) {
            out.failure(id, type, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("RPC command {} failed", type, e);
            out.failure(id, type, "Rebound failed to run " + type + " (" + e.getClass().getSimpleName()
                    + "); the details are in the log.");
        }
    }

    private void dispatch(String type, JsonNode id, JsonNode command) {
        switch (type) {
            case "prompt" -> prompt(id, command);
            case "abort" -> {
                current().abort();
                out.success(id, type, null);
            }
            case "get_state" -> out.success(id, type, state());
            case "set_model" -> setModel(id, command);
            case "get_available_models" -> out.success(id, type, availableModels());
            case "get_messages" -> out.success(id, type, messages());
            case "get_last_assistant_text" -> {
                ObjectNode data = mapper.createObjectNode();
                String text = current().lastAssistantText();
                data.set("text", text == null ? NullNode.getInstance() : mapper.getNodeFactory().textNode(text));
                out.success(id, type, data);
            }
            case "new_session" -> newSession(id);
            case "get_settings" -> out.success(id, type, settings.effectiveJson());
            case "set_settings" -> setSettings(id, command);
            default -> out.failure(id, type, "Unknown command '" + type + "'. Commands: prompt, abort, get_state, "
                    + "set_model, get_available_models, get_messages, get_last_assistant_text, new_session, "
                    + "get_settings, set_settings.");
        }
    }

    private void prompt(JsonNode id, JsonNode command) {
        JsonNode message = command.get("message");
        if (message == null || !message.isTextual()) {
            out.failure(id, "prompt", "prompt needs a \"message\" string");
            return;
        }
        PromptResult result = current().prompt(message.asText(), () -> out.success(id, "prompt", null));
        if (result instanceof PromptResult.Rejected rejected) {
            out.failure(id, "prompt", rejected.reason());
        }
    }

    private ObjectNode state() {
        ChatSession s = current();
        SessionState state = s.state();
        ObjectNode data = mapper.createObjectNode();
        data.set("model", state.model() == null ? NullNode.getInstance() : mapper.valueToTree(state.model()));
        data.put("isStreaming", state.streaming());
        data.put("isTurnRunning", state.turnRunning());
        data.put("autoRetryEnabled", settings.current().retry().enabled());
        data.put("sessionId", state.sessionId());
        data.putNull("sessionFile");
        data.put("messageCount", state.messageCount());
        return data;
    }

    private void setModel(JsonNode id, JsonNode command) {
        JsonNode provider = command.get("provider");
        JsonNode modelId = command.get("modelId");
        if (provider == null || !provider.isTextual() || modelId == null || !modelId.isTextual()) {
            out.failure(id, "set_model", "set_model needs \"provider\" and \"modelId\" strings");
            return;
        }
        ModelRef model = current().setModel(new ModelRef(provider.asText(), modelId.asText()));
        ObjectNode data = mapper.createObjectNode();
        data.set("model", mapper.valueToTree(model));
        out.success(id, "set_model", data);
    }

    private ObjectNode availableModels() {
        Settings now = settings.current();
        ArrayNode models = mapper.createArrayNode();
        now.providers().values().forEach(p -> {
            for (ModelConfig m : p.models()) {
                ObjectNode node = models.addObject();
                node.put("provider", p.key());
                node.put("id", m.id());
                if (m.contextWindow() != null) {
                    node.put("contextWindow", m.contextWindow());
                }
            }
        });
        ObjectNode data = mapper.createObjectNode();
        data.set("models", models);
        return data;
    }

    private ObjectNode messages() {
        ArrayNode list = mapper.createArrayNode();
        for (ChatMessage m : current().messages()) {
            list.add(mapper.valueToTree(m));
        }
        ObjectNode data = mapper.createObjectNode();
        data.set("messages", list);
        return data;
    }

    private void newSession(JsonNode id) {
        ChatSession old = current();
        if (old.state().turnRunning()) {
            out.failure(id, "new_session", "A turn is running; abort it or wait for it before starting a new session.");
            return;
        }
        ChatSession fresh = sessions.create();
        attach(fresh);
        old.close();
        ObjectNode data = mapper.createObjectNode();
        data.put("sessionId", fresh.id());
        out.success(id, "new_session", data);
    }

    private void setSettings(JsonNode id, JsonNode command) {
        JsonNode patch = command.get("patch");
        if (patch == null || !patch.isObject()) {
            out.failure(id, "set_settings", "set_settings needs a \"patch\" object (a JSON merge patch)");
            return;
        }
        SettingsUpdate update = settings.update(patch);
        if (update instanceof SettingsUpdate.Rejected rejected) {
            out.failure(id, "set_settings", "Settings not saved: " + rejected.reasons().stream()
                    .map(SettingsProblem::describe).collect(Collectors.joining("; ")));
            return;
        }
        out.success(id, "set_settings", settings.effectiveJson());
    }

    private void attach(ChatSession fresh) {
        synchronized (sessionLock) {
            if (subscription != null) {
                try {
                    subscription.close();
                } catch (Exception e) {
                    LOG.debug("Unsubscribing from the old session failed", e);
                }
            }
            session = fresh;
            subscription = fresh.subscribe(out::event);
        }
    }

    private ChatSession current() {
        synchronized (sessionLock) {
            return session;
        }
    }
}
