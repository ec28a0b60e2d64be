package dev.rebound.session;

import dev.rebound.history.JournalEntry;

/**
 * Receives every entry appended to a session's history as it happens, to make it durable. Called on the thread that
 * changed the history; must not throw (a failure to persist is the sink's to report, never the session's).
 */
public interface HistorySink {

    /** A new entry was appended. */
    void appended(JournalEntry entry);

    /** A sink that keeps nothing (sessions that are not saved). */
    HistorySink NONE = entry -> {};
}
