package dev.rebound.itplugins.recording;

import dev.rebound.api.AgentEnd;
import dev.rebound.api.AgentStart;
import dev.rebound.api.AssistantMessage;
import dev.rebound.api.AutoRetryEnd;
import dev.rebound.api.AutoRetryStart;
import dev.rebound.api.ChatMessage;
import dev.rebound.api.CredentialSwitched;
import dev.rebound.api.MessageEnd;
import dev.rebound.api.MessageStart;
import dev.rebound.api.MessageUpdate;
import dev.rebound.api.Notice;
import dev.rebound.api.PluginContext;
import dev.rebound.api.RetryChainEnd;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import dev.rebound.api.UserMessage;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import org.pf4j.Extension;

/**
 * Writes one line per event, in order, to {@code events.txt} in its data folder: the type, the session and turn, and
 * identifying fields.
 */
@Extension
public class RecordingListener implements SessionEventListener, AutoCloseable {
    private final BufferedWriter out;
    /** With {@code "dumpAll": true} in its settings: every event whole ({@code toString}), for secret sweeps. */
    private final BufferedWriter all;

    public RecordingListener(PluginContext context) throws IOException {
        Files.writeString(
                context.dataDirectory().resolve("context.txt"),
                context.pluginId() + " " + context.appVersion() + " " + context.pluginSettings() + " "
                        + context.settings().keySet());
        out = Files.newBufferedWriter(
                context.dataDirectory().resolve("events.txt"),
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING);
        if (Boolean.TRUE.equals(context.pluginSettings().get("dumpAll"))) {
            Files.writeString(
                    context.dataDirectory().resolve("settings-seen.txt"),
                    context.settings() + "\n" + context.pluginSettings() + "\n");
            // A careless plugin: RPC stdout must stay protocol frames only (the host hands System.out to stderr).
            System.out.println("recording plugin: hello on System.out");
            all = Files.newBufferedWriter(
                    context.dataDirectory().resolve("everything.txt"),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } else {
            all = null;
        }
    }

    @Override
    public void onEvent(SessionEvent event) {
        try {
            out.write(line(event));
            out.newLine();
            out.flush();
            if (all != null) {
                System.out.print("recording plugin saw " + event.type() + "\n");
                all.write(event.toString());
                all.newLine();
                all.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String line(SessionEvent event) {
        return event.type() + " session=" + event.session().id() + " turn=" + event.turnId()
                + switch (event) {
                    case AgentStart e -> " turnId=" + e.turnId();
                    case AgentEnd e -> " turnId=" + e.turnId() + " willRetry=" + e.willRetry();
                    case MessageStart e -> " id=" + id(e.message());
                    case MessageEnd e -> " id=" + id(e.message());
                    case MessageUpdate e -> " id=" + e.messageId() + " delta=" + e.delta();
                    case AutoRetryStart e -> " attempt=" + e.attempt() + " delayMs=" + e.delayMs();
                    case AutoRetryEnd e -> " attempt=" + e.attempt() + " success=" + e.success();
                    case RetryChainEnd e -> " turnId=" + e.turnId();
                    case CredentialSwitched e -> " from=" + e.from() + " to=" + e.to();
                    case Notice e -> " message=" + e.message();
                    default -> "";
                };
    }

    private static String id(ChatMessage message) {
        return switch (message) {
            case UserMessage u -> u.id();
            case AssistantMessage a -> a.id();
        };
    }

    @Override
    public void close() throws IOException {
        out.write("closed");
        out.newLine();
        out.close();
        if (all != null) {
            all.close();
        }
    }
}
