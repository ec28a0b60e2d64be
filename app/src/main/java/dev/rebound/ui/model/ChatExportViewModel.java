package dev.rebound.ui.model;

import dev.rebound.export.MarkdownExport;
import dev.rebound.files.AtomicFiles;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.SessionLoader;
import dev.rebound.history.SessionSummary;
import dev.rebound.session.ChatSession;
import dev.rebound.settings.WriteFailures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exports a chat as Markdown ({@link MarkdownExport}): reads it (an open chat from its session's history, which holds
 * even what a failing disk could not save; another from its file), renders and writes it atomically, all on the
 * background executor, then reports on the FX thread. Remembers the folder of the last export while the window is
 * open. Confined to the FX thread.
 */
public final class ChatExportViewModel {
    private static final Logger LOG = LoggerFactory.getLogger(ChatExportViewModel.class);

    /**
     * A chat to export.
     *
     * @param title its title, or null when it has none
     * @param file its session file, or null for a chat that is not saved (then it must be open)
     */
    public record Request(String sessionId, Path file, String title) {
        /** The title to show and to name the file after. */
        public String displayTitle() {
            return title == null || title.isBlank() ? "New chat" : title;
        }
    }

    /**
     * How an export ended.
     *
     * @param target the file written, or that could not be written
     * @param problem null when the file was written; else what went wrong and what to do, in plain words
     */
    public record Outcome(Request request, Path target, String problem) {
        public boolean written() {
            return problem == null;
        }
    }

    private final Function<String, ChatSession> openSessions;
    private final Function<String, String> titles;
    private final Consumer<String> inform;
    private final MarkdownExport markdown;
    private final Executor fx;
    private final Executor background;
    private final SessionLoader loader;
    private final Clock clock;
    private Path lastFolder;

    /**
     * @param openSessions the open session of a chat id, or null when the chat is not open
     * @param titles the title the sidebar knows for a chat id, or null
     * @param inform shows a line in the chat on screen (what was exported where)
     */
    ChatExportViewModel(
            Function<String, ChatSession> openSessions,
            Function<String, String> titles,
            Consumer<String> inform,
            ModelNames names,
            ZoneId zone,
            Clock clock,
            SessionLoader loader,
            Executor fx,
            Executor background) {
        this.clock = clock;
        this.loader = Objects.requireNonNull(loader, "loader");
        this.openSessions = openSessions;
        this.titles = titles;
        this.inform = inform;
        this.markdown = new MarkdownExport(names::of, zone);
        this.fx = fx;
        this.background = background;
    }

    /** The chat on screen, if one is. */
    public Optional<Request> requestFor(ChatViewModel chat) {
        if (chat == null) {
            return Optional.empty();
        }
        String title = titles.apply(chat.sessionId());
        return Optional.of(new Request(chat.sessionId(), chat.session().sessionFile(), title));
    }

    /** A chat of the sidebar. */
    public Request requestFor(SessionSummary summary) {
        return new Request(summary.id(), summary.file(), summary.title());
    }

    /** The file name proposed for a chat: its title made safe, {@code .md}. */
    public String fileName(Request request) {
        return MarkdownExport.fileName(request.displayTitle());
    }

    /** The folder of the last export, or null before the first (the chooser then starts in the home folder). */
    public Path folder() {
        return lastFolder;
    }

    /**
     * Writes the chat to {@code target} in the background; {@code done} gets the outcome on the FX thread. A failure
     * writes nothing (the target is left as it was) and is explained in plain words.
     */
    public void export(Request request, Path target, Consumer<Outcome> done) {
        Path folder = target.toAbsolutePath().getParent();
        if (folder != null) {
            lastFolder = folder;
        }
        ChatSession open = openSessions.apply(request.sessionId());
        background.execute(() -> {
            Outcome outcome = write(request, open, target);
            fx.execute(() -> {
                if (outcome.written()) {
                    inform.accept("Exported “" + request.displayTitle() + "” to " + target + ".");
                }
                done.accept(outcome);
            });
        });
    }

    private Outcome write(Request request, ChatSession open, Path target) {
        String text;
        try {
            text = render(request, open);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Reading chat {} for an export failed", request.sessionId(), e);
            return new Outcome(
                    request,
                    target,
                    "The chat could not be read from " + request.file() + " (" + e.getMessage()
                            + "). Nothing was written.");
        }
        try {
            AtomicFiles.writeAtomically(target, text.getBytes(StandardCharsets.UTF_8), null);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Exporting chat {} to {} failed", request.sessionId(), target, e);
            return new Outcome(request, target, WriteFailures.explain(target, e) + " The chat itself is unchanged.");
        }
        LOG.info("Chat {} exported to {}", request.sessionId(), target);
        return new Outcome(request, target, null);
    }

    private String render(Request request, ChatSession open) throws IOException {
        if (open != null) {
            List<JournalEntry> history = open.history();
            String title = open.title() != null ? open.title() : request.title();
            long started =
                    history.isEmpty() ? clock.millis() : history.getFirst().ts();
            return markdown.render(title, started, history);
        }
        if (request.file() == null) {
            throw new IOException("the chat is not saved and no longer open");
        }
        LoadedSession loaded = loader.load(request.file());
        return markdown.render(loaded.title(), loaded.header().created(), loaded.entries());
    }
}
