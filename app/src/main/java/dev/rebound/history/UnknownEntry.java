package dev.rebound.history;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * An entry of a type this version does not know, written by a newer Rebound. It is kept as its raw JSON, so nothing is
 * lost, and otherwise ignored: loading does not report it as a problem.
 *
 * @param json the whole line as read (a private copy)
 */
public record UnknownEntry(String id, long ts, String type, ObjectNode json) implements JournalEntry {
    public UnknownEntry {
        EntryIds.require(id);
        Objects.requireNonNull(type, "type");
        json = Objects.requireNonNull(json, "json").deepCopy();
    }

    /** The raw JSON (a copy: the record stays unchanged). */
    @Override
    public ObjectNode json() {
        return json.deepCopy();
    }
}
