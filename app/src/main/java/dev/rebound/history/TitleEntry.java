package dev.rebound.history;

import java.util.Objects;

/** A rename or an automatic title; the latest title entry in the file is the session's title. */
public record TitleEntry(String id, long ts, String title) implements JournalEntry {
    /** The {@code type} of this entry in the file. */
    public static final String TYPE = "title";

    public TitleEntry {
        EntryIds.require(id);
        Objects.requireNonNull(title, "title");
    }

    @Override
    public String type() {
        return TYPE;
    }
}
