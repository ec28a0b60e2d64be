package dev.rebound.history;

/**
 * One line of a session file after its header. Every entry has a {@code type}, an {@link #id() id} unique within the
 * file and a {@link #ts() timestamp}; the file is append-only, so a later entry may amend an earlier one (a
 * {@link RetriedMark} marks a message as a retried attempt, a {@link TitleEntry} renames the session).
 */
public sealed interface JournalEntry
        permits MessageEntry,
                RetriedMark,
                ModelChangeEntry,
                RetryChainEntry,
                NoticeEntry,
                TitleEntry,
                DamageNote,
                RewindEntry,
                SystemPromptEntry,
                UnknownEntry {

    /** Unique within the session file; the loader skips a second entry with the same id. */
    String id();

    /** Epoch milliseconds of the entry. */
    long ts();

    /** The entry's {@code type} in the file. */
    String type();
}
