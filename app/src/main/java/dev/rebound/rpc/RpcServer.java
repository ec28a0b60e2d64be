package dev.rebound.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.event.Notice;
import dev.rebound.files.FileProblem;
import dev.rebound.json.WireJson;
import dev.rebound.plugin.PluginReport;
import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.session.RetryStatus;
import dev.rebound.session.SessionFactory;
import dev.rebound.session.SessionState;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.Settings;
import dev.rebound.settings.SettingsSecrets;
import dev.rebound.settings.SettingsStore;
import dev.rebound.settings.SettingsUpdate;
import dev.rebound.simulator.BuiltInSimulator;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
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
    private final Supplier<List<PluginReport>> plugins;
    private final SimulatorCommands simulator;
    private final Object sessionLock = new Object();
    private final Map<String, Command> commands = commandTable();
    private ChatSession session;
    private AutoCloseable subscription;

    /**
     * @param simulator the built-in simulator the {@code simulate} commands script
     * @param plugins what {@code get_plugins} lists
     */
    public RpcServer(
            InputStream in,
            FrameWriter out,
            WireJson wire,
            SessionFactory sessions,
            SettingsStore settings,
            BuiltInSimulator simulator,
            Supplier<List<PluginReport>> plugins) {
        this.plugins = plugins;
        this.in = in;
        this.out = out;
        this.sessions = sessions;
        this.settings = settings;
        this.mapper = wire.mapper();
        this.simulator = new SimulatorCommands(simulator, mapper);
    }

    /**
     * Serves until end of input.
     *
     * @param startupNotices notices to show once the session is ready (settings problems...), as (level, message)
     * @return the process exit code
     */
    public int run(ChatSession first, List<Notice> startupNotices) {
        attach(first);
        try {
            out.ready();
            for (Notice notice : startupNotices) {
                current().announce(notice.level(), notice.message());
            }
            LineReader reader = new LineReader(in, MAX_LINE_BYTES);
            while (true) {
                LineReader.Line line = reader.next();
                if (line instanceof LineReader.Line.End) {
                    break;
                }
                if (line instanceof LineReader.Line.TooLong tooLong) {
                    out.failure(
                            null,
                            "parse",
                            "The line is " + tooLong.length() + " bytes long; the limit is " + MAX_LINE_BYTES
                                    + " bytes. It was ignored.");
                    continue;
                }
                String text = ((LineReader.Line.Text) line).text();
                if (!text.isBlank()) {
                    handleLine(text);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // A reader that goes away (a closed pipe) is an ordinary end for a script: one line says so, no trace.
            LOG.warn("RPC input or output failed ({}); finishing the running turn and stopping", e.getMessage());
            LOG.debug("RPC input or output failure", e);
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
            s.idle()
                    .orTimeout(5, java.util.concurrent.TimeUnit.SECONDS)
                    .exceptionally(e -> null)
                    .join();
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
        if (typeNode == null || typeNode.isNull()) {
            out.failure(
                    id, "unknown", "The command has no \"type\" field; e.g. {\"type\":\"prompt\",\"message\":\"hi\"}");
            return;
        }
        if (!typeNode.isTextual()) {
            out.failure(
                    id,
                    "unknown",
                    "The command's \"type\" must be a string naming the command, not "
                            + typeNode.getNodeType().toString().toLowerCase(java.util.Locale.ROOT) + " " + typeNode
                            + "; e.g. {\"type\":\"get_state\"}");
            return;
        }
        String type = typeNode.asText();
        try {
            dispatch(type, id, command);
        } catch (IllegalArgumentException e) {
            out.failure(id, type, e.getMessage());
        } catch (UncheckedIOException e) {
            // stdout is gone (FrameWriter): no response can reach anyone; run() ends the loop and says so once.
            throw e;
        } catch (RuntimeException e) {
            LOG.error("RPC command {} failed", type, e);
            out.failure(
                    id,
                    type,
                    "Rebound failed to run " + type + " (" + e.getClass().getSimpleName()
                            + "); the details are in the log.");
        }
    }

    private void dispatch(String type, JsonNode id, JsonNode command) {
        Command handler = commands.get(type);
        if (handler == null) {
            out.failure(
                    id,
                    type,
                    "Unknown command '" + type + "'. Commands: " + String.join(", ", commands.keySet()) + ".");
            return;
        }
        handler.run(id, command);
    }

    /** The command table; its keys are the commands of rpc.md that this build serves. */
    private Map<String, Command> commandTable() {
        Map<String, Command> table = new LinkedHashMap<>();
        table.put("prompt", this::prompt);
        table.put("abort", (id, c) -> {
            current().abort();
            out.success(id, "abort", null);
        });
        table.put("abort_retry", (id, c) -> {
            current().abortRetry();
            out.success(id, "abort_retry", null);
        });
        table.put("retry_now", (id, c) -> {
            JsonNode attempt = c.get("attempt");
            if (attempt == null || attempt.isNull()) {
                current().retryNow();
            } else if (attempt.isIntegralNumber() && attempt.canConvertToInt()) {
                current().retryNow(attempt.intValue());
            } else {
                out.failure(id, "retry_now", "\"attempt\" must be a whole number (the retry it is meant for)");
                return;
            }
            out.success(id, "retry_now", null);
        });
        table.put("set_auto_retry", this::setAutoRetry);
        table.put("get_state", (id, c) -> out.success(id, "get_state", state()));
        table.put("set_model", this::setModel);
        table.put("get_available_models", (id, c) -> out.success(id, "get_available_models", availableModels()));
        table.put("get_messages", (id, c) -> out.success(id, "get_messages", messages()));
        table.put("get_last_assistant_text", (id, c) -> {
            ObjectNode data = mapper.createObjectNode();
            String text = current().lastAssistantText();
            data.set(
                    "text",
                    text == null
                            ? NullNode.getInstance()
                            : mapper.getNodeFactory().textNode(text));
            out.success(id, "get_last_assistant_text", data);
        });
        table.put("new_session", (id, c) -> newSession(id));
        table.put(
                "get_settings",
                (id, c) -> out.success(id, "get_settings", SettingsSecrets.masked(settings.effectiveJson())));
        table.put("set_settings", this::setSettings);
        table.put("get_plugins", (id, c) -> out.success(id, "get_plugins", pluginList()));
        table.put("simulate", (id, c) -> out.success(id, "simulate", simulator.simulate(c)));
        table.put("get_simulation", (id, c) -> out.success(id, "get_simulation", simulator.state()));
        table.put("clear_simulation", (id, c) -> out.success(id, "clear_simulation", simulator.clear()));
        return java.util.Collections.unmodifiableMap(table);
    }

    /** One RPC command. */
    @FunctionalInterface
    private interface Command {
        void run(JsonNode id, JsonNode command);
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
        RetryStatus retry = s.retryStatus();
        data.put("isRetrying", retry.retrying());
        data.put("retryAttempt", retry.attempt());
        data.put("isRetryWaiting", retry.waiting());
        data.put("autoRetryEnabled", settings.current().retry().enabled());
        java.util.Optional<dev.rebound.session.FallbackStatus> fallback = s.fallback();
        data.put("fallbackActive", fallback.isPresent());
        fallback.ifPresent(f -> data.set("fallback", mapper.valueToTree(f)));
        data.put("sessionId", state.sessionId());
        if (s.sessionFile() == null) {
            data.putNull("sessionFile");
        } else {
            data.put("sessionFile", s.sessionFile().toString());
        }
        if (s.title() != null) {
            data.put("title", s.title());
        }
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
                if (m.name() != null) {
                    node.put("name", m.name());
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

    private ObjectNode pluginList() {
        ArrayNode list = mapper.createArrayNode();
        for (PluginReport p : plugins.get()) {
            ObjectNode node = list.addObject();
            node.put("id", p.id());
            if (p.version() == null) {
                node.putNull("version");
            } else {
                node.put("version", p.version());
            }
            node.put("state", p.state().wireName());
            if (p.failure() != null) {
                node.put("failure", p.failure());
            }
            node.put("delivered", p.delivered());
            node.put("dropped", p.dropped());
            node.put("failures", p.failures());
            node.put("archive", p.archive());
        }
        ObjectNode data = mapper.createObjectNode();
        data.set("plugins", list);
        return data;
    }

    private void newSession(JsonNode id) {
        ChatSession old = current();
        if (old.state().turnRunning()) {
            out.failure(id, "new_session", "A turn is running; abort it or wait for it before starting a new session.");
            return;
        }
        // The previous turn may still be sending its final events; they belong to its subscriber.
        old.idle()
                .orTimeout(5, java.util.concurrent.TimeUnit.SECONDS)
                .exceptionally(e -> null)
                .join();
        SessionFactory.Opened opened = sessions.create();
        ChatSession fresh = opened.session();
        attach(fresh);
        old.close();
        for (Notice notice : opened.notices()) {
            fresh.announce(notice.level(), notice.message());
        }
        ObjectNode data = mapper.createObjectNode();
        data.put("sessionId", fresh.id());
        out.success(id, "new_session", data);
    }

    private void setAutoRetry(JsonNode id, JsonNode command) {
        JsonNode enabled = command.get("enabled");
        if (enabled == null || !enabled.isBoolean()) {
            out.failure(id, "set_auto_retry", "set_auto_retry needs \"enabled\": true or false");
            return;
        }
        ObjectNode patch = mapper.createObjectNode();
        patch.putObject("retry").put("enabled", enabled.booleanValue());
        applySettings(id, "set_auto_retry", patch);
    }

    private void setSettings(JsonNode id, JsonNode command) {
        JsonNode patch = command.get("patch");
        if (patch == null || !patch.isObject()) {
            out.failure(id, "set_settings", "set_settings needs a \"patch\" object (a JSON merge patch)");
            return;
        }
        applySettings(id, "set_settings", patch);
    }

    private void applySettings(JsonNode id, String command, JsonNode patch) {
        java.util.Set<String> known =
                settings.problems().stream().map(FileProblem::describe).collect(Collectors.toSet());
        // A masked secret sent back unchanged keeps the stored one (docs/rpc.md).
        SettingsUpdate update = settings.update(SettingsSecrets.restored(patch, settings.effectiveJson()));
        if (update instanceof SettingsUpdate.Rejected rejected) {
            out.failure(
                    id,
                    command,
                    "Settings not saved: "
                            + rejected.reasons().stream()
                                    .map(FileProblem::describe)
                                    .collect(Collectors.joining("; ")));
            return;
        }
        out.success(id, command, SettingsSecrets.masked(settings.effectiveJson()));
        // New warnings of the saved settings (an unknown model in a fallback chain...) are shown, not silently kept.
        for (FileProblem warning : settings.problems()) {
            if (!known.contains(warning.describe())) {
                current().notice(dev.rebound.event.Notice.WARNING, warning.describe());
            }
        }
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
            subscription = fresh.subscribeScoped(out::event);
        }
    }

    private ChatSession current() {
        synchronized (sessionLock) {
            return session;
        }
    }
}
