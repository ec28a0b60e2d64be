package dev.rebound.history;

import java.util.List;

/**
 * Records that the damaged lines of a chat file (a line cut short by a full disk or a crash, a line that is not an
 * entry) were reported to the user when the chat was opened, so that later openings skip them quietly instead of
 * reporting the same damage every time. The damaged lines themselves stay as they are: the file is append-only.
 *
 * @param lines the line numbers reported
 */
public record DamageNote(String id, long ts, List<Long> lines) implements JournalEntry {
    /** The {@code type} of this entry in the file. */
    public static final String TYPE = "damage_noted";

    public DamageNote {
        EntryIds.require(id);
        lines = List.copyOf(lines);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
