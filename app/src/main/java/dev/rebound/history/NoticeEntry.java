package dev.rebound.history;

import java.util.Objects;

/**
 * A notice the user was shown.
 *
 * @param level {@code info}, {@code warning} or {@code error}
 */
public record NoticeEntry(String id, long ts, String level, String message) implements JournalEntry {
    /** The {@code type} of this entry in the file. */
    public static final String TYPE = "notice";

    public NoticeEntry {
        EntryIds.require(id);
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String type() {
        return TYPE;
    }
}
