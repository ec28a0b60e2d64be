package dev.rebound.session;

/**
 * Receives every change of a session's history as it happens, to make it durable. Called on the thread that changed
 * the history; must not throw (a failure to persist is the sink's to report, never the session's).
 */
public interface HistorySink {

    /** A new entry was appended. */
    void appended(HistoryEntry entry);

    /** A failed message was marked as retried, or un-marked when its retry was cancelled. */
    void retriedChanged(String messageId, boolean retried);

    /** A sink that keeps nothing (sessions that are not saved). */
    HistorySink NONE = new HistorySink() {
        @Override
        public void appended(HistoryEntry entry) {}

        @Override
        public void retriedChanged(String messageId, boolean retried) {}
    };
}
