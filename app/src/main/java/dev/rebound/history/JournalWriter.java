package dev.rebound.history;

import java.io.IOException;
import java.nio.file.Path;

/** Where a session's entries are appended; {@link SessionJournal} is the real one. */
public interface JournalWriter extends AutoCloseable {

    /** Appends one entry durably, or throws. */
    void append(JournalEntry entry) throws IOException;

    /** The file written. */
    Path file();

    @Override
    void close() throws IOException;
}
