package dev.rebound.session;

import dev.rebound.history.JournalEntry;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.NoticeEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.history.SessionJournal;
import dev.rebound.history.TitleEntry;
import java.io.IOException;
import java.time.Clock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a session's history to its file as it changes, one flushed line per entry. A write that fails (a full disk)
 * never stops the chat: it is logged, and the user is told once.
 */
public final class JournalHistorySink implements HistorySink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournalHistorySink.class);

    private final SessionJournal journal;
    private final IdGenerator ids;
    private final Clock clock;
    private final Consumer<String> onFirstFailure;
    private volatile boolean failed;

    /**
     * @param onFirstFailure told, once, what could not be saved and what to do
     */
    public JournalHistorySink(SessionJournal journal, IdGenerator ids, Clock clock, Consumer<String> onFirstFailure) {
        this.journal = journal;
        this.ids = ids;
        this.clock = clock;
        this.onFirstFailure = onFirstFailure;
    }

    @Override
    public void appended(HistoryEntry entry) {
        write(switch (entry) {
            case HistoryEntry.Message m -> new MessageEntry(m.message().id(), m.timestamp(), m.message());
            case HistoryEntry.ModelChange c -> new ModelChangeEntry(ids.next(), c.timestamp(), c.from(), c.to(),
                    c.role(), c.reason());
            case HistoryEntry.RetryChain r -> new RetryChainEntry(ids.next(), r.timestamp(), r.chain());
            case HistoryEntry.Notice n -> new NoticeEntry(ids.next(), n.timestamp(), n.level(), n.message());
            case HistoryEntry.Title t -> new TitleEntry(ids.next(), t.timestamp(), t.title());
        });
    }

    @Override
    public void retriedChanged(String messageId, boolean retried) {
        write(new RetriedMark(ids.next(), clock.millis(), messageId, retried));
    }

    private void write(JournalEntry entry) {
        try {
            journal.append(entry);
        } catch (IOException | RuntimeException e) {
            LOG.error("Could not save a {} entry to {}", entry.type(), journal.file(), e);
            if (!failed) {
                failed = true;
                onFirstFailure.accept("Rebound could not save this chat to " + journal.file() + " ("
                        + e.getMessage() + "). The chat goes on, but what follows may be missing when you reopen it. "
                        + "Free some disk space or check the folder's permissions.");
            }
        }
    }

    @Override
    public void close() {
        try {
            journal.close();
        } catch (IOException e) {
            LOG.warn("Closing {} failed", journal.file(), e);
        }
    }
}
