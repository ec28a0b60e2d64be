package dev.rebound.session;

import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;

/** One entry of a session's history: what happened, including failed attempts that the runtime context no longer holds. */
public sealed interface HistoryEntry {

    /** Epoch milliseconds of the entry. */
    long timestamp();

    /**
     * A message; {@code retried} marks a failed attempt that a retry replaced.
     */
    record Message(ChatMessage message, boolean retried, long timestamp) implements HistoryEntry {}

    /**
     * The session's model changed.
     *
     * @param role {@code user} for a manual choice, {@code fallback} for an automatic one (a fallback or a revert)
     * @param reason {@code user}, {@code fallback} or {@code revert}
     */
    record ModelChange(ModelRef from, ModelRef to, String role, String reason, long timestamp)
            implements HistoryEntry {}

    /** The record of a retry chain: every failed attempt, and how the chain ended. */
    record RetryChain(dev.rebound.event.RetryChainEnd chain, long timestamp) implements HistoryEntry {}

    /** The session's title was set (automatically after the first exchange, or by a rename). The latest wins. */
    record Title(String title, long timestamp) implements HistoryEntry {}

    /** A notice shown to the user. */
    record Notice(String level, String message, long timestamp) implements HistoryEntry {}
}
