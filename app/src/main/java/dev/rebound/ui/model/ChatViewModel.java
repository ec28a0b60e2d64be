package dev.rebound.ui.model;

import dev.rebound.event.AgentStart;
import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.CredentialSwitched;
import dev.rebound.event.MessageEnd;
import dev.rebound.event.MessageStart;
import dev.rebound.event.MessageUpdate;
import dev.rebound.event.ModelChanged;
import dev.rebound.event.Notice;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryEndReason;
import dev.rebound.event.RetryFallbackApplied;
import dev.rebound.event.RetryFallbackReverted;
import dev.rebound.event.SessionEvent;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.RewindEntry;
import dev.rebound.retry.ChainEndWording;
import dev.rebound.session.ChatSession;
import dev.rebound.session.FallbackStatus;
import dev.rebound.session.HistoryReplay;
import dev.rebound.session.PromptResult;
import dev.rebound.session.RetryCancel;
import dev.rebound.settings.SettingsValidator;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.UserMessage;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open chat: its rows, its state, the retry banner, the composer, the current model and the fallback chip. It
 * renders the session's events and calls the session; it holds no retry logic. Session events arrive on the session's
 * thread and are handed to the FX thread through the injected executor, in order; calls that may write the session file
 * go to the background executor so the FX thread never waits for the disk. Confined to the FX thread.
 */
public final class ChatViewModel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChatViewModel.class);
    private static final DateTimeFormatter HOUR_MINUTE = DateTimeFormatter.ofPattern("HH:mm");

    /** Whether a turn runs. */
    public enum State {
        /** Ready for a prompt. */
        IDLE,
        /** A reply is being produced (streaming, or a retried call runs). */
        RUNNING,
        /** A retry is scheduled; the banner counts down. */
        RETRY_WAITING
    }

    private final ChatSession session;
    private final Executor fx;
    /** The session calls of this chat, one at a time and in order, off the FX thread. */
    private final Executor background;

    private final ZoneId zone;
    private final ModelNames names;
    private final ObservableList<ChatItem> items = FXCollections.observableArrayList();
    private final ObservableList<ChatRow> rows = FXCollections.observableArrayList();
    private final ObservableList<ChatRow> rowsView = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(this, "state", State.IDLE);
    private final ReadOnlyObjectWrapper<ModelRef> model = new ReadOnlyObjectWrapper<>(this, "model");
    private final ReadOnlyStringWrapper fallbackChip = new ReadOnlyStringWrapper(this, "fallbackChip", "");
    private final ReadOnlyBooleanWrapper hasMessages = new ReadOnlyBooleanWrapper(this, "hasMessages");
    private final ReadOnlyObjectWrapper<UserItem> lastPrompt = new ReadOnlyObjectWrapper<>(this, "lastPrompt");
    private final ReadOnlyObjectWrapper<AssistantItem> lastReply = new ReadOnlyObjectWrapper<>(this, "lastReply");
    private final ReadOnlyBooleanWrapper canRewrite = new ReadOnlyBooleanWrapper(this, "canRewrite");
    private final ReadOnlyStringWrapper systemPrompt = new ReadOnlyStringWrapper(this, "systemPrompt");
    private final ReadOnlyObjectWrapper<Announcement> announcement = new ReadOnlyObjectWrapper<>(this, "announcement");
    private final RetryBannerViewModel banner;
    private final RetryRecordText recordText;
    private final TextSelection selection = new TextSelection();
    private final ComposerViewModel composer;
    private final AutoCloseable subscription;
    private Runnable onTurnEnded = () -> {};
    private AssistantItem reply;
    /** The calls of {@link #reply} as their messages ended, for its retry record. */
    private final List<AssistantMessage> replyCalls = new ArrayList<>();

    private Integer lastHttpStatus;
    private boolean closed;
    /** Which fallback-chip read is the newest (see {@link #refreshFallbackChip()}). */
    private long chipGeneration;
    /** Where new rows go: {@link #items}, or the list a reopened chat's history is replayed into. */
    private List<ChatItem> sink;
    /** While the history is replayed: nothing but rows changes (no banner, state, model or chip). */
    private boolean replaying;

    /**
     * A view-model of an open session.
     *
     * @param notices what opening the session found, as (level, message) pairs; shown first
     * @param fx runs work on the FX thread ({@code Platform::runLater}; direct in tests)
     * @param background runs session calls that may touch the disk (this chat's run one at a time, in order)
     * @param names what models are called on screen (rows, notices, chip, banner)
     */
    public ChatViewModel(
            ChatSession session,
            List<Notice> notices,
            Executor fx,
            Executor background,
            Clock clock,
            ZoneId zone,
            Ticker ticker,
            ModelNames names) {
        this.session = session;
        this.fx = fx;
        this.background = new SerialExecutor(background);
        this.zone = zone;
        this.names = names;
        this.banner = new RetryBannerViewModel(clock, ticker, names);
        this.recordText = new RetryRecordText(names, zone);
        this.composer = new ComposerViewModel(this);
        items.addListener((ListChangeListener<ChatItem>) change -> hasMessages.set(
                items.stream().anyMatch(item -> item instanceof UserItem || item instanceof AssistantItem)));
        items.addListener(this::itemsChanged);
        items.addListener((ListChangeListener<ChatItem>) change -> findLast());
        state.addListener((obs, old, now) -> findLast());
        sink = items;
        restore(session.history());
        for (Notice notice : notices) {
            items.add(new NoticeItem(NoticeItem.Level.of(notice.level()), notice.message()));
        }
        model.set(session.model());
        systemPrompt.set(session.systemPrompt());
        refreshFallbackChip();
        this.subscription = session.subscribe(event -> fx.execute(() -> onEvent(event)));
    }

    public ObservableList<ChatItem> items() {
        return items;
    }

    /**
     * The rows the chat list shows, kept in step with {@link #items()}: each prompt and notice is a row, and each reply
     * is one row per part ({@link ReplyPart}).
     */
    public ObservableList<ChatRow> rows() {
        return rowsView;
    }

    public ReadOnlyObjectProperty<State> stateProperty() {
        return state.getReadOnlyProperty();
    }

    public State state() {
        return state.get();
    }

    /** Whether the chat has a prompt or a reply (notices alone do not count): the welcome view shows until then. */
    public ReadOnlyBooleanProperty hasMessagesProperty() {
        return hasMessages.getReadOnlyProperty();
    }

    /** The model the next call goes to (a fallback while one is active). */
    public ReadOnlyObjectProperty<ModelRef> modelProperty() {
        return model.getReadOnlyProperty();
    }

    /** {@code Fallback: A → B · primary back at 14:32}, or empty when no fallback is active. */
    public ReadOnlyStringProperty fallbackChipProperty() {
        return fallbackChip.getReadOnlyProperty();
    }

    /** The text selected in this chat's messages (kept while the chat is open, whichever rows are on screen). */
    public TextSelection selection() {
        return selection;
    }

    public RetryBannerViewModel banner() {
        return banner;
    }

    public ComposerViewModel composer() {
        return composer;
    }

    /** The words of the replies' retry records (line, timeline, diagnostics). */
    public RetryRecordText recordText() {
        return recordText;
    }

    /** The session's id. */
    public String sessionId() {
        return session.id();
    }

    /** Runs after every turn (the sidebar refreshes its titles then). */
    public void setOnTurnEnded(Runnable action) {
        this.onTurnEnded = action == null ? () -> {} : action;
    }

    /**
     * Sends a prompt.
     *
     * @return false when the session refused it (the reason is shown as a notice)
     */
    public boolean send(String text) {
        if (closed) {
            return false;
        }
        PromptResult result = session.prompt(text, null);
        if (result instanceof PromptResult.Rejected rejected) {
            items.add(new NoticeItem(NoticeItem.Level.ERROR, rejected.reason()));
            return false;
        }
        state.set(State.RUNNING);
        ((PromptResult.Accepted) result).completion().whenComplete((outcome, failure) -> fx.execute(this::turnEnded));
        return true;
    }

    /**
     * Regenerate: sends the last prompt again for a new reply, in place of the reply it has (and of the notices after
     * it). The chat file keeps what was replaced (see {@link ChatSession#replaceLastPrompt}).
     *
     * @return false when nothing could be regenerated (a turn runs, no prompt yet, or the session refused)
     */
    public boolean regenerate() {
        UserItem prompt = lastPrompt.get();
        if (prompt == null || !replaceLastPrompt(prompt.text(), RewindEntry.REGENERATE)) {
            return false;
        }
        // An edit under way is for the message just sent again: it no longer applies.
        composer.cancelEdit();
        return true;
    }

    /** Edit and resend: sends {@code text} in place of the last prompt and what followed it. */
    public boolean resendEdited(String text) {
        return text != null && !text.isBlank() && replaceLastPrompt(text.strip(), RewindEntry.EDIT);
    }

    /** The last prompt of the chat (Edit offers it, Regenerate sends it again), or null. */
    public ReadOnlyObjectProperty<UserItem> lastPromptProperty() {
        return lastPrompt.getReadOnlyProperty();
    }

    /** The reply after the last prompt (it offers Regenerate), or null. */
    public ReadOnlyObjectProperty<AssistantItem> lastReplyProperty() {
        return lastReply.getReadOnlyProperty();
    }

    /** Whether Regenerate and Edit are offered: no turn runs and the chat has a prompt. */
    public ReadOnlyBooleanProperty canRewriteProperty() {
        return canRewrite.getReadOnlyProperty();
    }

    private boolean replaceLastPrompt(String text, String reason) {
        UserItem prompt = lastPrompt.get();
        if (closed || prompt == null || state.get() != State.IDLE) {
            return false;
        }
        PromptResult result = session.replaceLastPrompt(text, reason, null);
        if (result instanceof PromptResult.Rejected rejected) {
            items.add(new NoticeItem(NoticeItem.Level.ERROR, rejected.reason()));
            return false;
        }
        // The session's events for the new turn come through fx, after this: the replaced rows go first.
        items.remove(items.lastIndexOf(prompt), items.size());
        reply = null;
        replyCalls.clear();
        state.set(State.RUNNING);
        ((PromptResult.Accepted) result).completion().whenComplete((outcome, failure) -> fx.execute(this::turnEnded));
        return true;
    }

    private void findLast() {
        UserItem prompt = null;
        AssistantItem answer = null;
        for (int i = items.size() - 1; i >= 0 && prompt == null; i--) {
            switch (items.get(i)) {
                case UserItem user -> prompt = user;
                case AssistantItem assistant -> answer = answer == null ? assistant : answer;
                case NoticeItem notice -> {
                    // Notices belong to the turn they follow.
                }
            }
        }
        lastPrompt.set(prompt);
        lastReply.set(prompt == null ? null : answer);
        canRewrite.set(prompt != null && state.get() == State.IDLE && !closed);
    }

    /**
     * What a screen reader should say now (a retry scheduled, a chain's end, a key switch or a fallback); live events
     * only, never a reopened chat's history.
     */
    public ReadOnlyObjectProperty<Announcement> announcementProperty() {
        return announcement.getReadOnlyProperty();
    }

    private void announce(String text) {
        if (!replaying) {
            Announcement last = announcement.get();
            announcement.set(new Announcement(last == null ? 1 : last.number() + 1, text));
        }
    }

    /** The chat's own system prompt, or null while it uses the default of the settings. */
    public ReadOnlyStringProperty systemPromptProperty() {
        return systemPrompt.getReadOnlyProperty();
    }

    /**
     * Gives this chat its own system prompt from its next message on; null or blank goes back to the settings'
     * default. Saved in the chat's file off the FX thread.
     */
    public void setSystemPrompt(String prompt) {
        String normalized = prompt == null || prompt.isBlank() ? null : prompt.strip();
        if (normalized != null && normalized.length() > SettingsValidator.MAX_SYSTEM_PROMPT) {
            throw new IllegalArgumentException(
                    "A system prompt holds at most %,d characters".formatted(SettingsValidator.MAX_SYSTEM_PROMPT));
        }
        systemPrompt.set(normalized);
        background.execute(() -> session.setSystemPrompt(normalized));
    }

    /** Stop: ends the running turn (and any pending retry). */
    public void stop() {
        background.execute(session::abort);
    }

    /**
     * Cancel Retry (button or Esc), decided on the session's live state, not on what the banner shows: the session is
     * asked off the FX thread (its retry engine may be busy writing a credential block or a cooldown to disk), and
     * cancels if a chain runs. While the wait runs that ends the chain at once. When the wait has just ended and the
     * retried request is in flight, the cancel still goes to the session: that request is not thrown away (a reply
     * being read stays), but if it fails the chain ends as cancelled and no further retry starts.
     *
     * @return true when the banner showed a retry chain (Esc was meant for it and is used up)
     */
    public boolean cancelRetry() {
        boolean shown = banner.state() != RetryBannerViewModel.State.HIDDEN;
        background.execute(() -> {
            if (session.abortRetry() == RetryCancel.RUNNING_REQUEST_FLAGGED) {
                fx.execute(banner::cancelRequested);
            }
        });
        return shown;
    }

    /** Retry now: the retry the banner shows starts at once. */
    public void retryNow() {
        int attempt = banner.attempt();
        if (attempt > 0) {
            background.execute(() -> session.retryNow(attempt));
        }
    }

    /** The manual Retry of a failed reply: sends the prompt it answered again. */
    public boolean retry(AssistantItem failed) {
        int index = items.indexOf(failed);
        for (int i = index - 1; i >= 0; i--) {
            if (items.get(i) instanceof UserItem prompt) {
                return send(prompt.text());
            }
        }
        return false;
    }

    /** The user picked a model in the header. */
    public void chooseModel(ModelRef chosen) {
        if (chosen == null) {
            return;
        }
        background.execute(() -> {
            if (chosen.equals(session.model()) && session.fallback().isEmpty()) {
                return;
            }
            try {
                session.setModel(chosen);
            } catch (IllegalArgumentException e) {
                LOG.warn("Model {} could not be chosen", chosen, e);
                fx.execute(() -> items.add(new NoticeItem(NoticeItem.Level.ERROR, e.getMessage())));
            }
        });
    }

    /** Releases the subscription and the countdown; the session itself belongs to the caller. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        banner.hide();
        try {
            subscription.close();
        } catch (Exception e) {
            LOG.debug("Unsubscribing from session {} failed", session.id(), e);
        }
    }

    /** The session this view-model renders (for the window, which owns its lifetime). */
    ChatSession session() {
        return session;
    }

    private void itemsChanged(ListChangeListener.Change<? extends ChatItem> change) {
        while (change.next()) {
            if (change.wasRemoved() || change.getFrom() != items.size() - change.getAddedSize()) {
                // Only appends happen once the chat is open; anything else is rebuilt whole.
                rows.setAll(
                        items.stream().flatMap(item -> rowsOf(item).stream()).toList());
                return;
            }
            rows.addAll(change.getAddedSubList().stream()
                    .flatMap(item -> rowsOf(item).stream())
                    .toList());
        }
    }

    private List<ChatRow> rowsOf(ChatItem item) {
        return switch (item) {
            case UserItem user -> List.of(user);
            case NoticeItem notice -> List.of(notice);
            case AssistantItem reply -> {
                List<ChatRow> parts = new ArrayList<>(reply.partCount());
                for (int i = 0; i < reply.partCount(); i++) {
                    parts.add(new ReplyPart(reply, i));
                }
                yield parts;
            }
        };
    }

    /** A reply was cut into more parts (it grew) or went back to one (a retry restarted it): its rows follow. */
    private void partsChanged(AssistantItem reply, int old, int now) {
        int lastRow = rows.lastIndexOf(new ReplyPart(reply, old - 1));
        if (lastRow < 0) {
            return;
        }
        if (now > old) {
            List<ChatRow> added = new ArrayList<>();
            for (int i = old; i < now; i++) {
                added.add(new ReplyPart(reply, i));
            }
            rows.addAll(lastRow + 1, added);
        } else {
            rows.remove(lastRow - (old - now) + 1, lastRow + 1);
        }
    }

    private void turnEnded() {
        if (closed) {
            return;
        }
        banner.hide();
        if (reply != null
                && (reply.status() == AssistantItem.Status.STREAMING
                        || reply.status() == AssistantItem.Status.RETRYING)) {
            reply.end(AssistantItem.Status.FAILED, "The reply ended unexpectedly; see the log for details.");
        }
        reply = null;
        state.set(State.IDLE);
        onTurnEnded.run();
    }

    void onEvent(SessionEvent event) {
        if (closed) {
            return;
        }
        switch (event) {
            case MessageStart start -> messageStarted(start.message());
            case MessageUpdate update -> {
                if (reply != null && update.messageId().equals(reply.messageId())) {
                    if (MessageUpdate.TEXT.equals(update.kind())) {
                        reply.append(update.delta());
                    } else if (MessageUpdate.THINKING.equals(update.kind())) {
                        reply.appendThinking(update.delta());
                    }
                }
            }
            case MessageEnd end -> messageEnded(end.message());
            case AgentStart ignored -> {
                if (!replaying && banner.state() == RetryBannerViewModel.State.WAITING) {
                    banner.attemptStarted();
                    state.set(State.RUNNING);
                }
            }
            case AutoRetryStart start -> {
                if (reply != null) {
                    reply.end(AssistantItem.Status.RETRYING, start.errorMessage());
                }
                if (!replaying) {
                    banner.show(start, lastHttpStatus);
                    state.set(State.RETRY_WAITING);
                    long seconds = Math.round(start.delayMs() / 1000.0);
                    announce("The request failed: " + banner.summaryProperty().get() + ". Retry " + start.attempt()
                            + " of " + start.maxAttempts() + " "
                            + (seconds < 1 ? "at once" : seconds == 1 ? "in 1 second" : "in " + seconds + " seconds")
                            + ". Press Escape to cancel.");
                }
            }
            case AutoRetryEnd end -> chainEnded(end);
            case RetryChainEnd chain -> {
                if (reply != null && !replyCalls.isEmpty()) {
                    reply.record(RetryRecord.of(replyCalls, chain));
                }
            }
            case Notice notice -> sink.add(new NoticeItem(NoticeItem.Level.of(notice.level()), notice.message()));
            case RetryFallbackApplied applied -> {
                String notice = fallbackNotice(
                        applied.from() == null ? null : names.of(applied.from()), names.of(applied.to()));
                sink.add(new NoticeItem(NoticeItem.Level.WARNING, notice));
                announce(notice);
                refreshFallbackChip();
            }
            case RetryFallbackReverted reverted -> {
                sink.add(new NoticeItem(
                        NoticeItem.Level.INFO, revertNotice(names.of(reverted.from()), names.of(reverted.to()))));
                refreshFallbackChip();
            }
            case CredentialSwitched switched -> {
                sink.add(new NoticeItem(NoticeItem.Level.WARNING, ChatSession.credentialSwitchNotice(switched)));
                announce(ChatSession.credentialSwitchNotice(switched));
            }
            case ModelChanged changed -> {
                if (!replaying) {
                    model.set(changed.model());
                }
                refreshFallbackChip();
            }
            default -> {
                // agent_end and retry_fallback_succeeded change nothing on screen.
            }
        }
    }

    private void messageStarted(ChatMessage message) {
        switch (message) {
            case UserMessage user -> {
                // A new turn: a reply of an earlier one still open (Rebound was killed mid-retry) ends as failed.
                endDangling();
                reply = null;
                sink.add(new UserItem(user.text()));
            }
            case AssistantMessage assistant -> {
                String from = assistant.provider() == null ? null : names.of(assistant.modelRef());
                if (reply != null && reply.status() == AssistantItem.Status.RETRYING) {
                    reply.restart(assistant.id(), from);
                } else {
                    replyCalls.clear();
                    reply = new AssistantItem(assistant.id(), from, AssistantItem.Status.STREAMING);
                    if (!replaying) {
                        // Only a live reply grows (or restarts): a restored one keeps the parts it was shown with.
                        AssistantItem live = reply;
                        live.partCountProperty()
                                .addListener((obs, old, now) -> partsChanged(live, old.intValue(), now.intValue()));
                    }
                    sink.add(reply);
                }
            }
        }
    }

    private void messageEnded(ChatMessage message) {
        if (!(message instanceof AssistantMessage assistant)
                || reply == null
                || !assistant.id().equals(reply.messageId())) {
            return;
        }
        if (reply.text().isEmpty() && !assistant.text().isEmpty()) {
            // A reopened chat's reply (or one that did not stream) keeps the message's own text, not a copy.
            reply.settle(assistant.text());
        }
        if (reply.thinking().isEmpty()) {
            reply.appendThinking(thinkingOf(assistant));
        }
        replyCalls.add(assistant);
        reply.usage(assistant.usage());
        lastHttpStatus =
                assistant.failure() == null ? null : assistant.failure().httpStatus();
        switch (assistant.stopReason()) {
            case ERROR -> reply.end(AssistantItem.Status.FAILED, assistant.errorMessage());
            case ABORTED ->
                reply.end(
                        AssistantItem.Status.STOPPED,
                        ChatSession.ABORT_MESSAGE.equals(assistant.errorMessage()) ? null : assistant.errorMessage());
            default -> reply.end(AssistantItem.Status.DONE, null);
        }
    }

    private void chainEnded(AutoRetryEnd end) {
        if (!replaying) {
            banner.hide();
            state.set(State.RUNNING);
            announce(
                    switch (end.reason()) {
                        case SUCCEEDED ->
                            "Recovered after " + end.attempt() + (end.attempt() == 1 ? " retry" : " retries")
                                    + "; the reply is shown.";
                        case CANCELLED -> "Retry cancelled.";
                        case ABORTED -> "Stopped.";
                        default -> ChainEndWording.describe(end.reason(), end.attempt(), end.finalError());
                    });
        }
        if (end.success() || reply == null) {
            return;
        }
        endReply(reply, end.reason(), end.attempt(), end.finalError());
    }

    private static void endReply(AssistantItem reply, RetryEndReason reason, int attempt, String finalError) {
        if (reason == RetryEndReason.CANCELLED) {
            reply.end(AssistantItem.Status.CANCELLED, AutoRetryEnd.CANCELLED_MESSAGE);
        } else if (reason == RetryEndReason.ABORTED) {
            reply.end(AssistantItem.Status.STOPPED, null);
        } else {
            reply.end(AssistantItem.Status.FAILED, ChainEndWording.describe(reason, attempt, finalError));
        }
    }

    /**
     * The same words live and in a reopened chat ({@code Switched to B: A was unavailable.}); the chain's name is not
     * in the saved history, so it is not in the live notice either (the fallback chip names both models).
     */
    static String fallbackNotice(String from, String to) {
        return "Switched to " + to + ": " + (from == null ? "the model" : from) + " was unavailable.";
    }

    /** The same words live and in a reopened chat: {@code Back on A (your model); B was a temporary fallback.} */
    static String revertNotice(String from, String to) {
        return "Back on " + to + " (your model); " + from + " was a temporary fallback.";
    }

    /**
     * Reads the fallback state off the FX thread (it reads the shared cooldowns, whose file may be reread) and shows
     * it; a read that finishes after a newer one is dropped.
     */
    private void refreshFallbackChip() {
        if (replaying) {
            return;
        }
        long generation = ++chipGeneration;
        background.execute(() -> {
            String chip = session.fallback().map(this::chipText).orElse("");
            fx.execute(() -> {
                if (generation == chipGeneration) {
                    fallbackChip.set(chip);
                }
            });
        });
    }

    private String chipText(FallbackStatus status) {
        String text = "Fallback: " + names.of(status.primary()) + " → " + names.of(status.current());
        if (status.revertAt() != null) {
            text += " · primary back at "
                    + HOUR_MINUTE.format(Instant.ofEpochMilli(status.revertAt()).atZone(zone));
        }
        return text;
    }

    /**
     * Rows from the saved history, drawn by the same code as the live chat: the history is replayed as the events the
     * live session emitted ({@link HistoryReplay}), into a list that becomes the items at once.
     */
    private void restore(List<JournalEntry> history) {
        List<ChatItem> replayed = new ArrayList<>();
        sink = replayed;
        replaying = true;
        try {
            for (SessionEvent event : HistoryReplay.events(history)) {
                onEvent(event);
            }
            endDangling();
        } finally {
            sink = items;
            replaying = false;
            reply = null;
        }
        items.setAll(replayed);
    }

    /** A reply still streaming or waiting for its retry when its turn is over ends as failed, with what it had. */
    private void endDangling() {
        if (reply != null
                && (reply.status() == AssistantItem.Status.STREAMING
                        || reply.status() == AssistantItem.Status.RETRYING)) {
            String error = reply.errorProperty().get();
            reply.end(AssistantItem.Status.FAILED, error != null ? error : "The reply ended unexpectedly.");
        }
    }

    /** The reasoning a saved reply kept (redacted blocks have none to show), or null. */
    private static String thinkingOf(AssistantMessage message) {
        StringBuilder thinking = null;
        for (ContentBlock block : message.content()) {
            if (block instanceof ContentBlock.Thinking t && !t.redacted() && t.thinking() != null) {
                thinking = thinking == null ? new StringBuilder() : thinking;
                thinking.append(t.thinking());
            }
        }
        return thinking == null ? null : thinking.toString();
    }
}
