package dev.rebound.session;

import dev.rebound.auth.CredentialSource;
import dev.rebound.event.CredentialSwitched;
import dev.rebound.event.ModelChanged;
import dev.rebound.event.Notice;
import dev.rebound.history.Branches;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.RewindEntry;
import dev.rebound.history.SystemPromptEntry;
import dev.rebound.history.TitleEntry;
import dev.rebound.provider.CallControl;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.UserMessage;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One chat session: the runtime context sent to the model, the history of what happened, the current model, and at
 * most one running turn. Turns run on the session's own thread; commands ({@link #prompt}, {@link #abort},
 * {@link #setModel}) may come from any thread. Events reach listeners in order.
 *
 * <p>A turn is one prompt and the provider calls it takes: after each call the {@link AttemptPolicy} decides whether
 * the turn continues (a retry) or ends, and the turn's completion is not signalled until that chain has ended.
 */
public final class ChatSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChatSession.class);
    /** The message of a stop that the user (or shutdown) asked for. */
    public static final String ABORT_MESSAGE = "Request was aborted";

    private final String sessionId;
    private final Supplier<Settings> settings;
    private final AttemptPolicy attempts;
    private final RetryControl retries;
    private final Clock clock;
    private final IdGenerator ids;
    private final SessionEvents events;
    private final TurnLoop turns;
    private final RuntimeContext context = new RuntimeContext();
    private final History history;
    private final HistorySink historySink;
    private final java.nio.file.Path sessionFile;
    private final ExecutorService worker;
    private final Object lock = new Object();

    private final SessionModel model;
    private Turn activeTurn;
    /** The last turn started; its completion is signalled after its final events. */
    private Turn lastTurn;

    ChatSession(ChatSessionBuilder b) {
        this.sessionId = b.sessionId != null ? b.sessionId : IdGenerator.uuids().next();
        this.settings = Objects.requireNonNull(b.settings, "settings");
        ProviderDirectory providers = Objects.requireNonNull(b.providers, "providers");
        CredentialSource credentials = b.credentials != null ? b.credentials : provider -> Optional.empty();
        AttemptPolicy attempts = b.attempts != null ? b.attempts : AttemptPolicy.finishAlways();
        this.retries = b.retries != null ? b.retries : RetryControl.NONE;
        this.attempts = attempts;
        this.clock = b.clock != null ? b.clock : Clock.systemUTC();
        this.ids = b.ids != null ? b.ids : IdGenerator.random();
        this.model = b.sessionModel != null ? b.sessionModel : new SessionModel(b.model);
        HistorySink sink = b.historySink != null ? b.historySink : HistorySink.NONE;
        this.historySink = sink;
        this.sessionFile = b.sessionFile;
        if (b.restored != null) {
            this.history = new History(b.restored.history(), sink, IdGenerator.random(), clock);
            b.restored.context().forEach(context::add);
            context.systemPrompt(SystemPromptEntry.latest(b.restored.history()));
        } else {
            this.history = new History(List.of(), sink, IdGenerator.random(), clock);
        }
        this.events = new SessionEvents(history, sessionId, sessionFile);
        ProviderCall call = new ProviderCall(settings, providers, credentials, context, events, clock, lock);
        this.turns = new TurnLoop(ids, clock, model, context, history, events, attempts, call, this::release);
        this.worker = Executors.newSingleThreadExecutor(Thread.ofPlatform()
                .daemon(true)
                .name("rebound-session-" + sessionId.substring(0, Math.min(8, sessionId.length())))
                .factory());
    }

    /** A builder; settings and providers are required, the rest has defaults. */
    public static ChatSessionBuilder builder() {
        return new ChatSessionBuilder();
    }

    /** Subscribes a listener; close the result to unsubscribe. */
    public AutoCloseable subscribe(SessionListener listener) {
        Objects.requireNonNull(listener, "listener");
        return events.subscribe((event, scope) -> listener.onEvent(event));
    }

    /** Subscribes a listener that is told the session and turn of each event; close the result to unsubscribe. */
    public AutoCloseable subscribeScoped(ScopedSessionListener listener) {
        return events.subscribe(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Starts a turn for a user prompt, unless one is already running or no model is set. {@code onAccepted} runs
     * before the turn emits its first event (RPC mode writes its success response there, so the response precedes
     * the events).
     */
    public PromptResult prompt(String text, Runnable onAccepted) {
        return begin(text, onAccepted, () -> new Turn(ids.next(), text));
    }

    /**
     * Replaces the conversation's last prompt, and everything after it, with a new turn for {@code text}: the same text
     * regenerates the reply ({@link RewindEntry#REGENERATE}), another one resends it edited ({@link RewindEntry#EDIT}).
     * What is replaced stays in the session file, superseded by a {@link RewindEntry} written before the new prompt
     * (see {@link Branches}), and is neither shown nor sent again; what servers keep of the conversation is forgotten,
     * so the next call sends all of it. Refused while a turn runs and when the conversation has no prompt.
     */
    public PromptResult replaceLastPrompt(String text, String reason, Runnable onAccepted) {
        return begin(text, onAccepted, () -> {
            List<JournalEntry> branch = Branches.current(history.entries());
            int last = lastPrompt(branch);
            if (last < 0) {
                throw new TurnRefused("There is no message to send again yet.");
            }
            context.replaceWith(new RestoredSession(sessionId, branch.subList(0, last), null).context());
            return new Turn(
                    ids.next(),
                    text,
                    ((MessageEntry) branch.get(last)).message().id(),
                    reason);
        });
    }

    /** Makes the turn to start, under the session's lock, once nothing else stops it. */
    private interface TurnMaker {
        Turn make() throws TurnRefused;
    }

    /** Why a turn cannot start, for the user. */
    private static final class TurnRefused extends Exception {
        TurnRefused(String reason) {
            super(reason, null, false, false);
        }
    }

    private PromptResult begin(String text, Runnable onAccepted, TurnMaker maker) {
        if (text == null || text.isBlank()) {
            return new PromptResult.Rejected("The message is empty; nothing was sent.");
        }
        Turn turn;
        synchronized (lock) {
            if (activeTurn != null) {
                return new PromptResult.Rejected("A turn is already running; wait for it to finish, or stop it first.");
            }
            if (model.current() == null) {
                return new PromptResult.Rejected("No model is selected. Add a provider with a model in the "
                        + "settings (settings.json) and try again.");
            }
            try {
                turn = maker.make();
            } catch (TurnRefused refused) {
                return new PromptResult.Rejected(refused.getMessage());
            }
            activeTurn = turn;
            lastTurn = turn;
        }
        if (onAccepted != null) {
            onAccepted.run();
        }
        worker.execute(() -> turns.run(turn));
        return new PromptResult.Accepted(turn.id, turn.completion);
    }

    /**
     * The chat's own system prompt, or null when it uses the settings' default ({@code systemPrompt}).
     */
    public String systemPrompt() {
        return context.systemPrompt();
    }

    /**
     * Gives the chat its own system prompt, sent from the next call on in place of the settings' default; null or
     * blank goes back to the default. Saved in the session file (it writes: call it off a UI thread).
     */
    public void setSystemPrompt(String prompt) {
        String normalized = prompt == null || prompt.isBlank() ? null : prompt;
        if (java.util.Objects.equals(normalized, context.systemPrompt())) {
            return;
        }
        context.systemPrompt(normalized);
        history.systemPrompt(normalized);
    }

    /** The text of the conversation's last prompt (what regenerate sends again), or null when it has none. */
    public String lastPromptText() {
        List<JournalEntry> branch = Branches.current(history.entries());
        int last = lastPrompt(branch);
        return last < 0 ? null : ((UserMessage) ((MessageEntry) branch.get(last)).message()).text();
    }

    private static int lastPrompt(List<JournalEntry> branch) {
        for (int i = branch.size() - 1; i >= 0; i--) {
            if (branch.get(i) instanceof MessageEntry m && m.message() instanceof UserMessage) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The user's Stop: cancels a pending retry first, then aborts the provider call. The turn ends with an aborted
     * message. Does nothing when no turn is running.
     */
    public void abort() {
        Turn turn;
        synchronized (lock) {
            turn = activeTurn;
            if (turn == null) {
                return;
            }
            turn.userAborted = true;
        }
        retries.cancelPending(true);
        CallControl control = turn.control;
        if (control != null) {
            control.abort();
        }
    }

    /**
     * Cancels a pending retry (Cancel Retry, Esc, RPC {@code abort_retry}): the turn ends with
     * {@code auto_retry_end{success:false, finalError:"Retry cancelled"}} and no further attempt starts. Does nothing
     * when no retry is waiting.
     *
     * @return what there was to cancel (a waiting retry, a retried request already running, or nothing)
     */
    public RetryCancel abortRetry() {
        return retries.cancelPending(false);
    }

    /** Ends the current backoff early: the pending retry starts at once, with the same attempt number. */
    public void retryNow() {
        retries.retryNow(java.util.OptionalInt.empty());
    }

    /** Like {@link #retryNow()}, but only when the pending retry is number {@code attempt} (the one the user saw). */
    public void retryNow(int attempt) {
        retries.retryNow(java.util.OptionalInt.of(attempt));
    }

    /** Whether a retry chain runs, and its attempt. */
    public RetryStatus retryStatus() {
        return retries.status();
    }

    /**
     * Chooses the model for the next provider call.
     *
     * @throws IllegalArgumentException when that model is not configured
     */
    public ModelRef setModel(ModelRef newModel) {
        Objects.requireNonNull(newModel, "model");
        if (settings.get().findModel(newModel).isEmpty()) {
            throw new IllegalArgumentException(
                    "Model " + newModel.selector() + " is not configured; " + "choose one of the configured models.");
        }
        ModelRef old = model.current();
        model.choose(newModel);
        attempts.modelChosen();
        events.record(null, List.of(new ModelChanged(old, newModel, ModelChanged.USER)));
        return newModel;
    }

    /** Emits a notice to listeners and records it in the history. */
    public void notice(String level, String message) {
        history.notice(level, message);
        events.emit(null, new Notice(level, message));
    }

    /**
     * Emits a notice to listeners without recording it: facts about this run rather than the chat (a settings warning,
     * a damaged line found while reopening), which would otherwise pile up in the file on every reopen.
     */
    public void announce(String level, String message) {
        events.emit(null, new Notice(level, message));
    }

    /** The session's title, or null before one was set. */
    public String title() {
        String title = null;
        for (JournalEntry e : history.entries()) {
            if (e instanceof TitleEntry t) {
                title = t.title();
            }
        }
        return title;
    }

    /** Sets the title (auto-title or rename); it is saved with the history. */
    public void setTitle(String title) {
        history.title(title);
    }

    /** Where the session is saved, or null when it is not. */
    public java.nio.file.Path sessionFile() {
        return sessionFile;
    }

    /** The model the next call goes to (a fallback while one is active), or null. */
    public ModelRef model() {
        return model.current();
    }

    /** The active model fallback, if any. */
    public java.util.Optional<FallbackStatus> fallback() {
        return retries.fallback();
    }

    public String id() {
        return sessionId;
    }

    /** The messages of the runtime context (what the model is sent, plus a final failed reply if any). */
    public List<dev.rebound.transcript.ChatMessage> messages() {
        return context.messages();
    }

    /** The history of the session, failed attempts included. */
    public List<JournalEntry> history() {
        return history.entries();
    }

    /** The text of the last assistant message, or null. */
    public String lastAssistantText() {
        return context.lastAssistantText();
    }

    /** A snapshot of the session's state. */
    public SessionState state() {
        synchronized (lock) {
            Turn turn = activeTurn;
            return new SessionState(
                    sessionId, model.current(), turn != null, turn != null && turn.control != null, context.size());
        }
    }

    /**
     * Completes when the last turn started has ended and its final events have gone out (or at once when no turn was
     * ever started).
     */
    public CompletableFuture<?> idle() {
        synchronized (lock) {
            return lastTurn == null ? CompletableFuture.completedFuture(null) : lastTurn.completion;
        }
    }

    /** Aborts what runs, stops the session's thread and closes its file. */
    @Override
    public void close() {
        abort();
        worker.shutdown();
        try {
            if (!worker.awaitTermination(5, TimeUnit.SECONDS)) {
                worker.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (historySink instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("Closing the history of session {} failed", sessionId, e);
            }
        }
    }

    /** What a credential switch is called, live and in a reopened chat: {@code Switched p from key "a" to "b" …}. */
    public static String credentialSwitchNotice(CredentialSwitched switched) {
        return "Switched " + switched.provider() + " from key \"" + switched.from() + "\" to \"" + switched.to()
                + "\" after a usage limit.";
    }

    private void release(Turn turn) {
        synchronized (lock) {
            if (activeTurn == turn) {
                activeTurn = null;
            }
        }
    }
}
