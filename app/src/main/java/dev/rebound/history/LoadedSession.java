package dev.rebound.history;

import dev.rebound.files.FileProblem;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A session file as loaded: its header, every valid entry in file order, and what was wrong with the file.
 *
 * @param header the header; when the file had none, one made from the file name (see {@link SessionLoader})
 * @param entries the valid entries, without duplicates; {@link UnknownEntry unknown ones} included as raw JSON
 * @param problems warnings about skipped lines and a missing header, each naming the file and the line; damaged lines
 *     a {@link DamageNote} says were reported already are skipped without a warning
 * @param newlyDamagedLines the damaged lines reported in {@code problems}: once the user has been told, a
 *     {@link DamageNote} of them keeps later loads quiet about them
 */
public record LoadedSession(
        SessionHeader header, List<JournalEntry> entries, List<FileProblem> problems, List<Long> newlyDamagedLines) {
    public LoadedSession {
        Objects.requireNonNull(header, "header");
        entries = List.copyOf(entries);
        problems = List.copyOf(problems);
        newlyDamagedLines = List.copyOf(newlyDamagedLines);
    }

    /** A loaded session with no damaged lines. */
    public LoadedSession(SessionHeader header, List<JournalEntry> entries, List<FileProblem> problems) {
        this(header, entries, problems, List.of());
    }

    /** The session's title: that of the latest {@link TitleEntry}, else the header's; null when there is none. */
    public String title() {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i) instanceof TitleEntry t) {
                return t.title();
            }
        }
        return header.title();
    }

    /** The ids of the messages whose latest {@link RetriedMark} says they were retried. */
    public Set<String> retriedMessageIds() {
        return RetriedMark.retriedIds(entries);
    }
}
