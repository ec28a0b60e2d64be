package dev.rebound.session;

import java.util.ArrayList;
import java.util.List;

/**
 * What happened in a session, in order: every message including failed attempts, model changes and notices. Unlike
 * the runtime context it never forgets a failure. Thread-safe.
 */
public final class History {
    private final List<HistoryEntry> entries = new ArrayList<>();

    /** Appends an entry. */
    public synchronized void append(HistoryEntry entry) {
        entries.add(entry);
    }

    /** Marks the message of that id as a retried failure, or (when its retry was cancelled) as not retried. */
    public synchronized void markRetried(String messageId, boolean retried) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i) instanceof HistoryEntry.Message m && m.message().id().equals(messageId)) {
                entries.set(i, new HistoryEntry.Message(m.message(), retried, m.timestamp()));
                return;
            }
        }
    }

    /** A snapshot of the entries. */
    public synchronized List<HistoryEntry> entries() {
        return List.copyOf(entries);
    }
}
