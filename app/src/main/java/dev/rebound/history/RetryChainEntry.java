package dev.rebound.history;

import dev.rebound.event.RetryChainEnd;
import java.util.Objects;

/** The per-turn record of a retry chain: every failed attempt with its kind, status, model and credential label. */
public record RetryChainEntry(String id, long ts, RetryChainEnd chain) implements JournalEntry {
    /** The {@code type} of this entry in the file. */
    public static final String TYPE = "retry_chain";

    public RetryChainEntry {
        EntryIds.require(id);
        Objects.requireNonNull(chain, "chain");
    }

    @Override
    public String type() {
        return TYPE;
    }
}
