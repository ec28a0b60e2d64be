package dev.rebound.history;

import java.util.Objects;

/**
 * The user replaced the last prompt of the conversation: regenerated its reply ({@code regenerate}, the same text sent
 * again) or edited it ({@code edit}). The prompt named by {@link #replaces()} and everything after it are superseded:
 * they stay in the file (it is append-only) but are no longer part of the conversation shown or sent; the turn that
 * follows this entry takes their place. See {@link Branches}.
 *
 * @param replaces the id of the user message that is replaced, with everything after it
 * @param reason {@link #REGENERATE} or {@link #EDIT}
 */
public record RewindEntry(String id, long ts, String replaces, String reason) implements JournalEntry {
    /** The {@code type} of this entry in the file. */
    public static final String TYPE = "rewind";
    /** The same prompt sent again for a new reply. */
    public static final String REGENERATE = "regenerate";
    /** The prompt edited and sent again. */
    public static final String EDIT = "edit";

    public RewindEntry {
        EntryIds.require(id);
        Objects.requireNonNull(replaces, "replaces");
        Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String type() {
        return TYPE;
    }
}
