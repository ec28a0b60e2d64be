package dev.rebound.session;

import dev.rebound.event.AgentEnd;
import dev.rebound.event.AgentStart;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.event.CredentialSwitched;
import dev.rebound.transcript.FailureKind;
import dev.rebound.event.MessageEnd;
import dev.rebound.event.MessageStart;
import dev.rebound.event.MessageUpdate;
import dev.rebound.event.ModelChanged;
import dev.rebound.transcript.ModelRef;
import dev.rebound.event.Notice;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.SessionEvent;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import dev.rebound.auth.CredentialSource;
import dev.rebound.auth.CredentialsBlocked;
import dev.rebound.provider.CallControl;
import dev.rebound.provider.ChatProvider;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.StreamListener;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.Settings;
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
 * <p>A turn is one prompt and the provider calls it takes: after each call the {@link AgentEndHandler} decides whether
 * the turn continues (a retry) or ends, and the turn's completion is not signalled until that chain has ended.
 */
public final class ChatSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChatSession.class);
    /** The message of a stop that the user (or shutdown) asked for. */
    public static final String ABORT_MESSAGE = "Request was aborted";

    private final String sessionId;
    private final Supplier<Settings> settings;
    private final ProviderDirectory providers;
    private final CredentialSource credentials;
    private final AgentEndHandler agentEndHandler;
    private final Clock clock;
    private final IdGenerator ids;
    private final EventBus bus = new EventBus();
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

    private ChatSession(Builder b) {
        this.sessionId = b.sessionId != null ? b.sessionId : IdGenerator.uuids().next();
        this.settings = Objects.requireNonNull(b.settings, "settings");
        this.providers = Objects.requireNonNull(b.providers, "providers");
        this.credentials = b.credentials != null ? b.credentials : provider -> Optional.empty();
        this.agentEndHandler = b.agentEndHandler != null ? b.agentEndHandler : AgentEndHandler.finishAlways();
        this.clock = b.clock != null ? b.clock : Clock.systemUTC();
        this.ids = b.ids != null ? b.ids : IdGenerator.random();
        this.model = b.sessionModel != null ? b.sessionModel : new SessionModel(b.model);
        HistorySink sink = b.historySink != null ? b.historySink : HistorySink.NONE;
        this.historySink = sink;
        this.sessionFile = b.sessionFile;
        if (b.restored != null) {
            this.history = new History(b.restored.history(), sink);
            b.restored.context().forEach(context::add);
        } else {
            this.history = new History(sink);
        }
        this.worker = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon(true)
                .name("rebound-session-" + sessionId.substring(0, Math.min(8, sessionId.length()))).factory());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Subscribes a listener; close the result to unsubscribe. */
    public AutoCloseable subscribe(SessionListener listener) {
        Objects.requireNonNull(listener, "listener");
        return bus.subscribe((event, scope) -> listener.onEvent(event));
    }

    /** Subscribes a listener that is told the session and turn of each event; close the result to unsubscribe. */
    public AutoCloseable subscribeScoped(ScopedSessionListener listener) {
        return bus.subscribe(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Starts a turn for a user prompt, unless one is already running or no model is set. {@code onAccepted} runs
     * before the turn emits its first event (RPC mode writes its success response there, so the response precedes
     * the events).
     */
    public PromptResult prompt(String text, Runnable onAccepted) {
        if (text == null || text.isBlank()) {
            return new PromptResult.Rejected("The message is empty; nothing was sent.");
        }
        Turn turn;
        synchronized (lock) {
            if (activeTurn != null) {
                return new PromptResult.Rejected(
                        "A turn is already running; wait for it to finish, or stop it first.");
            }
            if (model.current() == null) {
                return new PromptResult.Rejected("No model is selected. Add a provider with a model in the "
                        + "settings (settings.json) and try again.");
            }
            turn = new Turn(ids.next(), text);
            activeTurn = turn;
            lastTurn = turn;
        }
        if (onAccepted != null) {
            onAccepted.run();
        }
        worker.execute(() -> runTurn(turn));
        return new PromptResult.Accepted(turn.id, turn.completion);
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
        agentEndHandler.cancelPending(true);
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
        return agentEndHandler.cancelPending(false);
    }

    /** Ends the current backoff early: the pending retry starts at once, with the same attempt number. */
    public void retryNow() {
        agentEndHandler.retryNow(java.util.OptionalInt.empty());
    }

    /** Like {@link #retryNow()}, but only when the pending retry is number {@code attempt} (the one the user saw). */
    public void retryNow(int attempt) {
        agentEndHandler.retryNow(java.util.OptionalInt.of(attempt));
    }

    /** Whether a retry chain runs, and its attempt. */
    public RetryStatus retryStatus() {
        return agentEndHandler.status();
    }

    /**
     * Chooses the model for the next provider call.
     *
     * @throws IllegalArgumentException when that model is not configured
     */
    public ModelRef setModel(ModelRef newModel) {
        Objects.requireNonNull(newModel, "model");
        if (settings.get().findModel(newModel).isEmpty()) {
            throw new IllegalArgumentException("Model " + newModel.selector() + " is not configured; "
                    + "choose one of the configured models.");
        }
        ModelRef old = model.current();
        model.choose(newModel);
        agentEndHandler.modelChosen();
        emitAll(null, List.of(new ModelChanged(old, newModel, ModelChanged.USER)));
        return newModel;
    }

    /** Emits a notice to listeners and records it in the history. */
    public void notice(String level, String message) {
        history.append(new HistoryEntry.Notice(level, message, clock.millis()));
        emit(null, new Notice(level, message));
    }

    /**
     * Emits a notice to listeners without recording it: facts about this run rather than the chat (a settings warning,
     * a damaged line found while reopening), which would otherwise pile up in the file on every reopen.
     */
    public void announce(String level, String message) {
        emit(null, new Notice(level, message));
    }

    /** The session's title, or null before one was set. */
    public String title() {
        String title = null;
        for (HistoryEntry e : history.entries()) {
            if (e instanceof HistoryEntry.Title t) {
                title = t.title();
            }
        }
        return title;
    }

    /** Sets the title (auto-title or rename); it is saved with the history. */
    public void setTitle(String title) {
        history.append(new HistoryEntry.Title(title, clock.millis()));
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
        return agentEndHandler.fallback();
    }

    public String id() {
        return sessionId;
    }

    /** The messages of the runtime context (what the model is sent, plus a final failed reply if any). */
    public List<dev.rebound.transcript.ChatMessage> messages() {
        return context.messages();
    }

    /** The history of the session, failed attempts included. */
    public List<HistoryEntry> history() {
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
            return new SessionState(sessionId, model.current(), turn != null, turn != null && turn.control != null,
                    context.size());
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

    private void runTurn(Turn turn) {
        AssistantMessage last = null;
        // The failure taken out of the context for a retry that has not delivered its own reply yet.
        AssistantMessage awaitingReplacement = null;
        boolean ended = false;
        Throwable failure = null;
        try {
            UserMessage user = new UserMessage(ids.next(), turn.prompt, clock.millis());
            context.add(user);
            history.append(new HistoryEntry.Message(user, false, user.timestamp()));
            emitAll(turn, agentEndHandler.beforeTurn());
            emit(turn, new AgentStart(turn.id));
            emit(turn, new MessageStart(user));
            emit(turn, new MessageEnd(user));
            for (int attempt = 0; ; attempt++) {
                if (attempt > 0) {
                    emit(turn, new AgentStart(turn.id));
                }
                last = runAttempt(turn);
                awaitingReplacement = null;
                AgentEndDecision decision = agentEndHandler.onAgentEnd(
                        new AttemptResult(turn.id, attempt, last, turn.userAborted));
                if (decision instanceof AgentEndDecision.Finish finish) {
                    endTurn(turn, finish.events());
                    ended = true;
                    break;
                }
                AgentEndDecision.Retry retry = (AgentEndDecision.Retry) decision;
                awaitingReplacement = last;
                context.remove(last.id());
                history.markRetried(last.id(), true);
                emit(turn, new AgentEnd(turn.id, true));
                emitAll(turn, retry.events());
                if (retry.retry().awaitDue() instanceof AgentEndDecision.Resume.Cancelled cancelled) {
                    // Not retried after all: the failure is what the user is left with.
                    restore(awaitingReplacement);
                    awaitingReplacement = null;
                    endTurn(turn, cancelled.events());
                    ended = true;
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            LOG.error("Turn {} failed unexpectedly", turn.id, e);
            failure = e;
        } finally {
            if (!ended) {
                // The retry never delivered: the failure it was to replace is what the turn leaves, as after a cancel.
                restore(awaitingReplacement);
                String what = failure == null ? "The turn was interrupted"
                        : "Something went wrong inside Rebound while answering (" + failure.getClass().getSimpleName()
                                + ")";
                List<SessionEvent> closing = new java.util.ArrayList<>(agentEndHandler.abandon(turn.id, what));
                if (failure != null) {
                    closing.add(new Notice(Notice.ERROR, what + ". The details are in the log; you can send your "
                            + "message again."));
                }
                endTurn(turn, closing);
            }
            AssistantMessage finalMessage = last != null ? last : emptyAborted(turn);
            LOG.info("Turn {} ended: {}{}", turn.id, finalMessage.stopReason(),
                    finalMessage.errorMessage() == null ? "" : " (" + finalMessage.errorMessage() + ")");
            turn.completion.complete(new TurnOutcome(turn.id, finalMessage));
        }
    }

    /** Puts a failure taken out for a retry back into the context, no longer marked retried; null does nothing. */
    private void restore(AssistantMessage failure) {
        if (failure != null) {
            context.add(failure);
            history.markRetried(failure.id(), false);
        }
    }

    /**
     * Ends a turn: it stops counting as running (so a host reacting to the last events can prompt), then the closing
     * events go out and the turn's last event, {@code agent_end{willRetry:false}}.
     */
    private void endTurn(Turn turn, List<SessionEvent> closing) {
        release(turn);
        emitAll(turn, closing);
        emit(turn, new AgentEnd(turn.id, false));
    }

    /** What a credential switch is called, live and in a reopened chat: {@code Switched p from key "a" to "b" …}. */
    public static String credentialSwitchNotice(CredentialSwitched switched) {
        return "Switched " + switched.provider() + " from key \"" + switched.from() + "\" to \"" + switched.to()
                + "\" after a usage limit.";
    }

    /** Emits events a handler returned, recording in the history those that belong there. */
    private void emitAll(Turn turn, List<SessionEvent> events) {
        for (SessionEvent event : events) {
            switch (event) {
                case Notice n -> history.append(new HistoryEntry.Notice(n.level(), n.message(), clock.millis()));
                // Kept as a notice, so a reopened chat still says why the key changed.
                case CredentialSwitched c -> history.append(new HistoryEntry.Notice(Notice.WARNING,
                        credentialSwitchNotice(c), clock.millis()));
                case RetryChainEnd r -> history.append(new HistoryEntry.RetryChain(r, clock.millis()));
                case ModelChanged m -> history.append(new HistoryEntry.ModelChange(m.from(), m.model(),
                        ModelChanged.USER.equals(m.reason()) ? "user" : "fallback", m.reason(), clock.millis()));
                default -> {
                }
            }
            emit(turn, event);
        }
    }

    /** Emits one event of a turn, or of no turn when {@code turn} is null. */
    private void emit(Turn turn, SessionEvent event) {
        bus.emit(event, new EventScope(sessionId, sessionFile, turn == null ? null : turn.id));
    }

    private void release(Turn turn) {
        synchronized (lock) {
            if (activeTurn == turn) {
                activeTurn = null;
            }
        }
    }

    private AssistantMessage runAttempt(Turn turn) {
        String messageId = ids.next();
        ModelRef current = model.current();
        emit(turn, new MessageStart(new AssistantMessage(messageId, List.of(), current.provider(), current.id(),
                null, null, null, null, null, null, null, clock.millis())));
        AssistantMessage message = callProvider(turn, messageId, current);
        context.add(message);
        history.append(new HistoryEntry.Message(message, false, message.timestamp()));
        emit(turn, new MessageEnd(message));
        return message;
    }

    private AssistantMessage callProvider(Turn turn, String messageId, ModelRef current) {
        Settings now = settings.get();
        Optional<ProviderConfig> config = now.provider(current.provider());
        if (config.isEmpty()) {
            return configurationFailure(messageId, current, null, "Provider '" + current.provider()
                    + "' of model " + current.selector() + " is not configured in settings.json.");
        }
        Optional<ChatProvider> implementation = providers.forApi(config.get().api());
        if (implementation.isEmpty()) {
            return configurationFailure(messageId, current, config.get().api().toString(), "Provider '"
                    + current.provider() + "' uses api '" + config.get().api() + "', which this version of Rebound "
                    + "cannot speak yet. Use an openai-completions compatible endpoint for it.");
        }
        Optional<CredentialsBlocked> blocked = credentials.blocked(current.provider());
        if (blocked.isPresent()) {
            return credentialsBlocked(messageId, current, config.get().api().toString(), blocked.get());
        }
        CallControl control = new CallControl();
        synchronized (lock) {
            turn.control = control;
            if (turn.userAborted) {
                control.abort();
            }
        }
        try {
            ProviderRequest request = new ProviderRequest(messageId, config.get(), current, context.forProvider(),
                    credentials.credentialFor(current.provider()).orElse(null), now.timeouts());
            return implementation.get().stream(request, new StreamListener() {
                @Override
                public void onTextDelta(String delta) {
                    emit(turn, new MessageUpdate(messageId, MessageUpdate.TEXT, delta));
                }

                @Override
                public void onThinkingDelta(String delta) {
                    emit(turn, new MessageUpdate(messageId, MessageUpdate.THINKING, delta));
                }
            }, control);
        } finally {
            synchronized (lock) {
                turn.control = null;
            }
        }
    }

    /** The reply of a call that was not made because every key of the provider is blocked (§5). */
    private AssistantMessage credentialsBlocked(String messageId, ModelRef current, String api, CredentialsBlocked b) {
        long wait = Math.max(0, b.untilEpochMs() - clock.millis());
        String text = "Every API key of provider '" + b.provider() + "' is blocked after usage limits ("
                + b.detail() + "), so Rebound did not send the request.";
        ProviderFailure failure = new ProviderFailure(FailureKind.CREDENTIALS_BLOCKED, null,
                b.billingOnly() ? "billing" : "usage_limit", "credentials_blocked",
                java.util.Map.of("retry-after-ms", Long.toString(wait)));
        return new AssistantMessage(messageId, List.of(), current.provider(), current.id(), api, b.soonestLabel(),
                null, StopReason.ERROR, text, null, failure, clock.millis());
    }

    private AssistantMessage configurationFailure(String messageId, ModelRef current, String api, String text) {
        return new AssistantMessage(messageId, List.of(), current.provider(), current.id(), api, null, null,
                StopReason.ERROR, text, null, ProviderFailure.of(FailureKind.CONFIGURATION), clock.millis());
    }

    private AssistantMessage emptyAborted(Turn turn) {
        ModelRef current = model.current();
        return new AssistantMessage(turn.id, List.of(), current == null ? "" : current.provider(),
                current == null ? "" : current.id(), null, null, null, StopReason.ABORTED, ABORT_MESSAGE, null, null,
                clock.millis());
    }

    /** The state of the running turn. Fields other than the final ones are guarded by the session's lock. */
    private static final class Turn {
        final String id;
        final String prompt;
        final CompletableFuture<TurnOutcome> completion = new CompletableFuture<>();
        volatile boolean userAborted;
        volatile CallControl control;

        Turn(String id, String prompt) {
            this.id = id;
            this.prompt = prompt;
        }
    }

    /** Builds a session; settings and providers are required, the rest has defaults. */
    public static final class Builder {
        private String sessionId;
        private Supplier<Settings> settings;
        private ProviderDirectory providers;
        private CredentialSource credentials;
        private AgentEndHandler agentEndHandler;
        private Clock clock;
        private IdGenerator ids;
        private ModelRef model;
        private SessionModel sessionModel;
        private HistorySink historySink;
        private java.nio.file.Path sessionFile;
        private RestoredSession restored;

        /** Where the history is saved as it changes. */
        public Builder historySink(HistorySink sink) {
            this.historySink = sink;
            return this;
        }

        /** The file the sink writes, reported to hosts ({@code get_state.sessionFile}). */
        public Builder sessionFile(java.nio.file.Path file) {
            this.sessionFile = file;
            return this;
        }

        /** Rebuilds the session from saved history (its id, entries and runtime context). */
        public Builder restore(RestoredSession session) {
            this.restored = session;
            this.sessionId = session.sessionId();
            return this;
        }

        public Builder sessionId(String id) {
            this.sessionId = id;
            return this;
        }

        /** Read at every call, so settings changes apply to the next call. */
        public Builder settings(Supplier<Settings> s) {
            this.settings = s;
            return this;
        }

        public Builder providers(ProviderDirectory p) {
            this.providers = p;
            return this;
        }

        public Builder credentials(CredentialSource c) {
            this.credentials = c;
            return this;
        }

        public Builder agentEndHandler(AgentEndHandler h) {
            this.agentEndHandler = h;
            return this;
        }

        public Builder clock(Clock c) {
            this.clock = c;
            return this;
        }

        public Builder ids(IdGenerator g) {
            this.ids = g;
            return this;
        }

        /** The model to start on (ignored when a {@link #sessionModel} is given). */
        public Builder model(ModelRef m) {
            this.model = m;
            return this;
        }

        /** The session's models, shared with the fallback policy. */
        public Builder sessionModel(SessionModel m) {
            this.sessionModel = m;
            return this;
        }

        public ChatSession build() {
            return new ChatSession(this);
        }
    }
}
