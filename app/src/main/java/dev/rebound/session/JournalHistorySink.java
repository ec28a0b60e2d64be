package dev.rebound.session;

import dev.rebound.history.JournalEntry;
import dev.rebound.history.JournalWriter;
import java.io.IOException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a session's history to its file as it changes, one flushed line per entry. A write that fails (a full disk)
 * never stops the chat and loses nothing: the entry is kept and written, in order, as soon as a later write succeeds
 * (the loader skips an entry id it has already read, so a line cut by the failure cannot duplicate it). The user is
 * told when saving stops working and when it works again.
 */
public final class JournalHistorySink implements HistorySink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournalHistorySink.class);

    private final JournalWriter journal;
    private final Consumer<String> tellUser;
    private final java.util.ArrayDeque<JournalEntry> unsaved = new java.util.ArrayDeque<>();
    private boolean closed;

    /**
     * @param tellUser told (as a message for people) when saving stops working and when it works again
     */
    public JournalHistorySink(JournalWriter journal, Consumer<String> tellUser) {
        this.journal = journal;
        this.tellUser = tellUser;
    }

    @Override
    public void appended(JournalEntry entry) {
        write(entry);
    }

    private synchronized void write(JournalEntry entry) {
        if (closed) {
            LOG.debug("Session file {} is closed; a late {} entry is not saved", journal.file(), entry.type());
            return;
        }
        boolean wasFailing = !unsaved.isEmpty();
        unsaved.addLast(entry);
        try {
            while (!unsaved.isEmpty()) {
                journal.append(unsaved.peekFirst());
                unsaved.removeFirst();
            }
        } catch (IOException | RuntimeException e) {
            LOG.error(
                    "Could not save a {} entry to {} ({} waiting)",
                    unsaved.peekFirst().type(),
                    journal.file(),
                    unsaved.size(),
                    e);
            if (!wasFailing) {
                tellUser.accept("Rebound cannot save this chat to " + journal.file() + " right now (" + e.getMessage()
                        + "). The chat goes on and Rebound keeps what is not saved yet, to write it as soon as it can; "
                        + "free some disk space or check the folder's permissions.");
            }
            return;
        }
        if (wasFailing) {
            tellUser.accept("Saving this chat works again; everything held back is now in " + journal.file() + ".");
        }
    }

    /** Entries kept because they could not be written yet. */
    synchronized int unsavedCount() {
        return unsaved.size();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (!unsaved.isEmpty()) {
            LOG.error("{} entries of {} could not be saved before closing", unsaved.size(), journal.file());
        }
        try {
            journal.close();
        } catch (IOException e) {
            LOG.warn("Closing {} failed", journal.file(), e);
        }
    }
}
