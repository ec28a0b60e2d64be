package dev.rebound.ui.model;

import dev.rebound.event.Notice;
import dev.rebound.history.SessionCatalogue;
import dev.rebound.history.SessionLoader;
import dev.rebound.history.SessionSummary;
import dev.rebound.session.ChatSession;
import dev.rebound.session.SessionFactory;
import dev.rebound.settings.Settings;
import dev.rebound.settings.SettingsStore;
import dev.rebound.transcript.ModelRef;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ChangeListener;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat window: the sidebar, the configured models and the open chats. Chats stay open (and keep streaming) while
 * another one is shown; beyond the {@value #KEEP_OPEN} most recently shown, a chat that is idle (no turn running, no
 * retry waiting) and not shown is closed, and reopened from its file when it is selected again. All are closed with
 * the window. Opening, creating, renaming and deleting touch the disk, so
 * they run on the background executor and land on the FX thread. Confined to the FX thread once its window is shown;
 * made before that on whichever thread makes the window (the desktop's start: the main thread, its FX work held
 * until the window is shown).
 */
public final class ChatWindowViewModel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChatWindowViewModel.class);
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    /** How many chats stay open at least (the most recently shown), so going back to one is instant. */
    static final int KEEP_OPEN = 5;

    /** Whether a chat is shown. */
    public enum State {
        /** The first chat is being opened. */
        STARTING,
        /** A chat is shown. */
        READY,
        /** No chat could be opened; {@link #problemProperty()} says why. */
        FAILED
    }

    /** What the window's view-models need. */
    public record Dependencies(
            SessionFactory sessions,
            SessionCatalogue catalogue,
            SettingsStore settings,
            Executor fx,
            Executor background,
            Clock clock,
            ZoneId zone,
            Ticker ticker,
            SimulatorPort simulator) {}

    private final Dependencies deps;
    private final SidebarViewModel sidebar;
    /** The open chats, least recently shown first. */
    private final Map<String, ChatViewModel> open = new LinkedHashMap<>();
    /** Files being reopened, so a second click does not open the same file twice. */
    private final java.util.Set<Path> opening = new java.util.HashSet<>();
    /** Sessions of idle chats being closed, by file: reopening one waits until its file lock is released. */
    private final Map<Path, CompletableFuture<Void>> closing = new java.util.HashMap<>();

    private final ObservableList<ModelRef> models = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<ChatViewModel> current = new ReadOnlyObjectWrapper<>(this, "current");
    private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(this, "state", State.STARTING);
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper(this, "problem", "");
    private final ReadOnlyBooleanWrapper offline = new ReadOnlyBooleanWrapper(this, "offline");
    private final ModelNames names;
    private final SimulatorMenuViewModel simulatorMenu;
    private final ChatExportViewModel export;
    private final ChangeListener<ModelRef> modelShown = (obs, old, now) -> modelShown();
    private final Consumer<Settings> settingsListener;
    private List<Notice> startupNotices = List.of();
    private boolean closed;

    public ChatWindowViewModel(Dependencies deps) {
        this.deps = deps;
        this.sidebar = new SidebarViewModel(deps.catalogue(), deps.fx(), deps.background());
        this.names = new ModelNames(deps.settings()::current);
        this.simulatorMenu = new SimulatorMenuViewModel(deps.simulator(), deps.ticker(), names);
        this.export = new ChatExportViewModel(
                id -> open.containsKey(id) ? open.get(id).session() : null,
                id -> sidebar.sessions().stream()
                        .filter(s -> s.id().equals(id))
                        .map(SessionSummary::title)
                        .findFirst()
                        .orElse(null),
                text -> {
                    ChatViewModel chat = current.get();
                    if (chat != null) {
                        chat.items().add(new NoticeItem(NoticeItem.Level.INFO, text));
                    }
                },
                names,
                deps.zone(),
                deps.clock(),
                new SessionLoader(deps.catalogue().codec()),
                deps.fx(),
                deps.background());
        this.models.setAll(deps.settings().current().allModels());
        this.offline.set(deps.settings().usesBuiltInProvider());
        this.settingsListener = s -> deps.fx().execute(() -> {
            models.setAll(s.allModels());
            offline.set(deps.settings().usesBuiltInProvider());
            modelShown();
        });
        deps.settings().addListener(settingsListener);
        current.addListener((obs, old, now) -> {
            if (old != null) {
                old.modelProperty().removeListener(modelShown);
            }
            if (now != null) {
                now.modelProperty().addListener(modelShown);
            }
            modelShown();
        });
    }

    public SidebarViewModel sidebar() {
        return sidebar;
    }

    /** The configured models, for the model picker; follows settings changes. */
    public ObservableList<ModelRef> models() {
        return models;
    }

    /** The default system prompt of the settings in effect (empty for none); a chat without its own uses it. */
    public String defaultSystemPrompt() {
        return deps.settings().current().systemPrompt();
    }

    /** What models are called on screen (the model picker uses it too). */
    public ModelNames modelNames() {
        return names;
    }

    /**
     * Whether the built-in simulator is the provider because none is configured: the welcome view shows in an empty
     * chat then. Follows settings changes (it turns false once a provider is saved).
     */
    public ReadOnlyBooleanProperty offlineProperty() {
        return offline.getReadOnlyProperty();
    }

    /** Export of a chat as Markdown. */
    public ChatExportViewModel export() {
        return export;
    }

    /** The "Simulate failures" menu. */
    public SimulatorMenuViewModel simulatorMenu() {
        return simulatorMenu;
    }

    /** The chat shown, or null while none is open. */
    public ReadOnlyObjectProperty<ChatViewModel> currentProperty() {
        return current.getReadOnlyProperty();
    }

    public ChatViewModel current() {
        return current.get();
    }

    public ReadOnlyObjectProperty<State> stateProperty() {
        return state.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /**
     * Opens the first chat: the saved one given (e.g. {@code --session}), else a new one. Returns at once.
     *
     * @param resume a session file, or null
     * @param notices what starting found, as (level, message) pairs, shown in the first chat
     */
    public void start(Path resume, List<Notice> notices) {
        startupNotices = List.copyOf(notices);
        sidebar.refresh();
        if (resume == null) {
            newChat();
        } else {
            openFile(resume);
        }
    }

    /**
     * Shows {@code first}, a chat made before the window, at once, so that the window's first frame holds it (the
     * desktop's start; {@link #start} opens the first chat in the background instead).
     *
     * @param notices what starting found, as (level, message) pairs, shown in the chat
     */
    public void startWith(SessionFactory.Opened first, List<Notice> notices) {
        startupNotices = List.copyOf(notices);
        attach(first);
    }

    /** Starts a new chat and shows it (Ctrl+N); says so when it could not be made. */
    public void newChat() {
        deps.background().execute(() -> {
            SessionFactory.Opened opened;
            try {
                opened = deps.sessions().create();
            } catch (RuntimeException e) {
                LOG.error("A new chat could not be made", e);
                String message = "A new chat could not be started (" + e.getMessage() + "). Details are in the log "
                        + "file; try again with Ctrl+N.";
                deps.fx().execute(() -> couldNotOpen(message, message));
                return;
            }
            deps.fx().execute(() -> attach(opened));
        });
    }

    /** Shows a saved chat, reopening it when it is not open yet. */
    public void open(SessionSummary summary) {
        ChatViewModel already = open.get(summary.id());
        if (already != null) {
            show(already);
            return;
        }
        openFile(summary.file());
    }

    /** Renames a chat (whitespace collapsed, as the catalogue does); errors become a notice in the chat shown. */
    public void rename(SessionSummary summary, String title) {
        ChatViewModel chat = open.get(summary.id());
        String clean = WHITESPACE.matcher(title).replaceAll(" ").strip();
        if (clean.isEmpty() || clean.length() > SessionCatalogue.MAX_TITLE_LENGTH) {
            tell("A chat's name must have 1 to " + SessionCatalogue.MAX_TITLE_LENGTH + " characters.");
            return;
        }
        deps.background().execute(() -> {
            try {
                if (chat != null) {
                    // The open session owns the file's writer, so its own history records the new title.
                    chat.session().setTitle(clean);
                } else {
                    deps.catalogue().rename(summary.id(), clean);
                }
            } catch (IOException | IllegalArgumentException e) {
                LOG.warn("Renaming session {} failed", summary.id(), e);
                deps.fx().execute(() -> tell("The chat could not be renamed: " + e.getMessage()));
            }
            deps.fx().execute(sidebar::refresh);
        });
    }

    /** Deletes a chat (to the trash), closing it first when it is open. */
    public void delete(SessionSummary summary) {
        ChatViewModel chat = open.remove(summary.id());
        if (chat != null) {
            chat.close();
        }
        boolean wasShown = chat != null && chat == current.get();
        if (wasShown) {
            current.set(
                    open.isEmpty()
                            ? null
                            : open.values().stream().reduce((a, b) -> b).orElseThrow());
        }
        // Closed a moment ago as idle: its session must release the file (its lock) before the file is moved.
        CompletableFuture<Void> stillClosing = closing.get(key(summary.file()));
        deps.background().execute(() -> {
            if (chat != null) {
                chat.session().close();
            }
            if (stillClosing != null) {
                stillClosing.exceptionally(e -> null).join();
            }
            try {
                deps.catalogue().delete(summary.id());
            } catch (IOException e) {
                LOG.warn("Deleting session {} failed", summary.id(), e);
                deps.fx().execute(() -> tell("The chat could not be moved to the trash: " + e.getMessage()));
            }
            deps.fx().execute(() -> {
                sidebar.refresh();
                if (current.get() == null && !closed) {
                    newChat();
                }
            });
        });
    }

    /** Closes every open chat and, in the background, its session. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        deps.settings().removeListener(settingsListener);
        simulatorMenu.close();
        List<ChatViewModel> chats = List.copyOf(open.values());
        open.clear();
        current.set(null);
        for (ChatViewModel chat : chats) {
            chat.close();
            // Closing aborts a running turn and closes the file: disk work, so off the FX thread.
            deps.background().execute(chat.session()::close);
        }
    }

    private static Path key(Path file) {
        return file.toAbsolutePath().normalize();
    }

    private void openFile(Path file) {
        if (!opening.add(file)) {
            return;
        }
        CompletableFuture<Void> stillClosing = closing.get(key(file));
        deps.background().execute(() -> {
            try {
                if (stillClosing != null) {
                    // Closed a moment ago as idle: its session must release the file before it is opened again.
                    stillClosing.exceptionally(e -> null).join();
                }
                SessionFactory.Opened opened = deps.sessions().resume(file);
                deps.fx().execute(() -> {
                    opening.remove(file);
                    attach(opened);
                });
            } catch (IOException | RuntimeException e) {
                LOG.warn("Opening {} failed", file, e);
                deps.fx().execute(() -> {
                    opening.remove(file);
                    String message = "The chat in " + file + " could not be opened (" + e.getMessage() + ").";
                    couldNotOpen(message + " Start a new chat with Ctrl+N.", message);
                });
            }
        });
    }

    /**
     * A chat could not be made or opened: with no chat shown, the window fails with {@code problem}; else the shown
     * chat is told {@code notice}.
     */
    private void couldNotOpen(String problem, String notice) {
        if (current.get() == null) {
            this.problem.set(problem);
            state.set(State.FAILED);
        } else {
            tell(notice);
        }
    }

    private void attach(SessionFactory.Opened opened) {
        ChatSession session = opened.session();
        if (closed) {
            deps.background().execute(session::close);
            return;
        }
        List<Notice> notices = new java.util.ArrayList<>(startupNotices);
        notices.addAll(opened.notices());
        startupNotices = List.of();
        ChatViewModel chat = new ChatViewModel(
                session, notices, deps.fx(), deps.background(), deps.clock(), deps.zone(), deps.ticker(), names);
        chat.setOnTurnEnded(() -> {
            sidebar.refresh();
            closeIdle();
        });
        open.put(session.id(), chat);
        show(chat);
        LOG.info("Chat {} shown ({})", session.id(), session.sessionFile());
        state.set(State.READY);
        problem.set("");
        sidebar.refresh();
    }

    private void modelShown() {
        ChatViewModel chat = current.get();
        simulatorMenu.modelShown(
                deps.settings().current(),
                chat == null ? null : chat.modelProperty().get());
    }

    private void show(ChatViewModel chat) {
        open.remove(chat.sessionId());
        open.put(chat.sessionId(), chat);
        current.set(chat);
        closeIdle();
    }

    /** Closes the least recently shown chats beyond {@link #KEEP_OPEN} that are idle and not shown. */
    private void closeIdle() {
        int surplus = open.size() - KEEP_OPEN;
        List<ChatViewModel> oldestFirst = List.copyOf(open.values());
        for (int i = 0; i < oldestFirst.size() && surplus > 0; i++) {
            ChatViewModel chat = oldestFirst.get(i);
            if (chat != current.get() && chat.state() == ChatViewModel.State.IDLE) {
                open.remove(chat.sessionId());
                chat.close();
                Path file = key(chat.session().sessionFile());
                CompletableFuture<Void> closed = CompletableFuture.runAsync(chat.session()::close, deps.background());
                closing.put(file, closed);
                closed.whenComplete((done, failure) -> deps.fx().execute(() -> closing.remove(file, closed)));
                surplus--;
                LOG.debug("Idle chat {} closed; it reopens from its file when selected", chat.sessionId());
            }
        }
    }

    /** Whether a chat is open now (its session and view-model alive). */
    boolean isOpen(String sessionId) {
        return open.containsKey(sessionId);
    }

    private void tell(String message) {
        ChatViewModel chat = current.get();
        if (chat != null) {
            chat.items().add(new NoticeItem(NoticeItem.Level.ERROR, message));
        } else {
            problem.set(message);
        }
    }
}
