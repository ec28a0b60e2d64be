package dev.rebound.history;

import dev.rebound.files.FileProblem;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One session as the session list shows it, read from the file's first line and its end.
 *
 * @param id the session id (the file name without {@code .jsonl})
 * @param file the session file
 * @param title the latest title, or null when the session has none yet (see {@link #displayTitle()})
 * @param created epoch milliseconds when the session was created
 * @param lastActivity epoch milliseconds of the last entry (the creation time when there is none)
 * @param sizeBytes the file's size
 * @param problems what is wrong with the file, as far as its head and tail show; the session is listed anyway
 */
public record SessionSummary(
        String id,
        Path file,
        String title,
        long created,
        long lastActivity,
        long sizeBytes,
        List<FileProblem> problems) {
    public SessionSummary {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(file, "file");
        problems = List.copyOf(problems);
    }

    /** The title, or {@value SessionTitles#UNTITLED} when there is none. */
    public String displayTitle() {
        return title == null || title.isBlank() ? SessionTitles.UNTITLED : title;
    }
}
