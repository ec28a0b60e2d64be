package dev.rebound.session;

import java.util.ArrayList;
import java.util.List;

/**
 * What happened in a session, in order: every message including failed attempts, model changes, retry chains and
 * notices. Unlike the runtime context it never forgets a failure. Every change also goes to the {@link HistorySink}
 * (the session file). Thread-safe.
 */
public final class History {
    private final List<HistoryEntry> entries = new ArrayList<>();
    private final HistorySink sink;

    public History(HistorySink sink) {
        this.sink = sink;
    }

    /** A history holding restored entries (not written again). */
    public History(List<HistoryEntry> restored, HistorySink sink) {
        this(sink);
        entries.addAll(restored);
    }

    /** Appends an entry. */
    public void append(HistoryEntry entry) {
        synchronized (this) {
            entries.add(entry);
        }
        sink.appended(entry);
    }

    /** Marks the message of that id as a retried failure, or (when its retry was cancelled) as not retried. */
    public void markRetried(String messageId, boolean retried) {
        synchronized (this) {
            for (int i = entries.size() - 1; i >= 0; i--) {
                if (entries.get(i) instanceof HistoryEntry.Message m
                        && m.message().id().equals(messageId)) {
                    entries.set(i, new HistoryEntry.Message(m.message(), retried, m.timestamp()));
                    break;
                }
            }
        }
        sink.retriedChanged(messageId, retried);
    }

    /** A snapshot of the entries. */
    public synchronized List<HistoryEntry> entries() {
        return List.copyOf(entries);
    }
}
