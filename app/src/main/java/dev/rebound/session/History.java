package dev.rebound.session;

import dev.rebound.event.RetryChainEnd;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.NoticeEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.history.RewindEntry;
import dev.rebound.history.SystemPromptEntry;
import dev.rebound.history.TitleEntry;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What happened in a session, in order: every message including failed attempts, model changes, retry chains, notices,
 * titles and retried marks. The entries are those of the session file ({@link JournalEntry}), the same records live and
 * reopened: appending one here is appending it to the file (through the {@link HistorySink}), and a reopened session
 * starts from the file's entries as read. Like the file it is append-only: a retried attempt is marked by a later
 * {@link RetriedMark}, not changed in place. Thread-safe.
 */
public final class History {
    private final List<JournalEntry> entries = new ArrayList<>();
    private final Object appending = new Object();
    private final HistorySink sink;
    private final IdGenerator ids;
    private final Clock clock;

    /**
     * A history holding restored entries (not written again), to which new ones are appended.
     *
     * @param ids the ids of new entries other than messages (a message's entry has the message's id); their own
     *     source, so that making entries never changes the ids of turns and messages
     */
    public History(List<JournalEntry> restored, HistorySink sink, IdGenerator ids, Clock clock) {
        this.sink = sink;
        this.ids = ids;
        this.clock = clock;
        entries.addAll(restored);
    }

    /** Appends a message, with its own id and time. */
    public void message(ChatMessage message) {
        append(MessageEntry.of(message));
    }

    /** Appends a notice shown to the user. */
    public void notice(String level, String message) {
        append(new NoticeEntry(ids.next(), clock.millis(), level, message));
    }

    /** Appends a change of the session's model. */
    public void modelChange(ModelRef from, ModelRef to, String role, String reason) {
        append(new ModelChangeEntry(ids.next(), clock.millis(), from, to, role, reason));
    }

    /** Appends the record of a finished retry chain. */
    public void retryChain(RetryChainEnd chain) {
        append(new RetryChainEntry(ids.next(), clock.millis(), chain));
    }

    /** Appends the rewind of a replaced prompt (see {@link RewindEntry}). */
    public void rewind(String replacesMessageId, String reason) {
        append(new RewindEntry(ids.next(), clock.millis(), replacesMessageId, reason));
    }

    /** Appends the chat's own system prompt (null: back to the settings' default). */
    public void systemPrompt(String prompt) {
        append(new SystemPromptEntry(ids.next(), clock.millis(), prompt));
    }

    /** Appends a title (the latest wins). */
    public void title(String title) {
        append(new TitleEntry(ids.next(), clock.millis(), title));
    }

    /** Marks the message of that id as a retried failure, or (when its retry was cancelled) as not retried. */
    public void markRetried(String messageId, boolean retried) {
        append(new RetriedMark(ids.next(), clock.millis(), messageId, retried));
    }

    /**
     * Appends in memory and then to the sink, one append at a time, so the file's order is the memory's. Readers take
     * only the brief lock of {@link #entries()}, never the one held while the sink writes.
     */
    private void append(JournalEntry entry) {
        synchronized (appending) {
            synchronized (this) {
                entries.add(entry);
            }
            sink.appended(entry);
        }
    }

    /** A snapshot of the entries. */
    public synchronized List<JournalEntry> entries() {
        return List.copyOf(entries);
    }

    /** The ids of the messages the entries mark as retried: the latest mark of each message wins. */
    public static Set<String> retriedIds(List<JournalEntry> entries) {
        return RetriedMark.retriedIds(entries);
    }
}
