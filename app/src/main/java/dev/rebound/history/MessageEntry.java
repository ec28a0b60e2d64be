package dev.rebound.history;

import dev.rebound.transcript.ChatMessage;
import java.util.Objects;

/**
 * A user or assistant message, written as the wire form of {@link ChatMessage} (an assistant message keeps its model,
 * provider, credential label, usage, stop reason, error message and failure facts). A failed attempt is written like
 * any message; a later {@link RetriedMark} says it was retried.
 */
public record MessageEntry(String id, long ts, ChatMessage message) implements JournalEntry {
    /** The {@code type} of this entry in the file. */
    public static final String TYPE = "message";

    public MessageEntry {
        EntryIds.require(id);
        Objects.requireNonNull(message, "message");
    }

    /**
     * The entry of a message, with the message's own id and timestamp: a message appended twice (say, replayed after a
     * crash) is then loaded once.
     */
    public static MessageEntry of(ChatMessage message) {
        return new MessageEntry(message.id(), message.timestamp(), message);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
