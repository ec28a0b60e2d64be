package dev.rebound.history;

import java.util.Objects;

/**
 * The first line of a session file: {@code {"type":"session","version":1,"id":…,"created":…,"title":…}}.
 *
 * @param version the format version the file was written with ({@link #CURRENT_VERSION} by this Rebound)
 * @param id the session id, which is also the file's name without {@code .jsonl}
 * @param created epoch milliseconds when the session was created
 * @param title the title given at creation, or null; later {@link TitleEntry title entries} replace it
 */
public record SessionHeader(int version, String id, long created, String title) {
    /** The format version this Rebound writes. */
    public static final int CURRENT_VERSION = 1;

    public SessionHeader {
        if (version < 1) {
            throw new IllegalArgumentException("a session format version is at least 1, not " + version);
        }
        Objects.requireNonNull(id, "id");
    }

    /** A header of the current format version. */
    public static SessionHeader of(String id, long created, String titleOrNull) {
        return new SessionHeader(CURRENT_VERSION, id, created, titleOrNull);
    }
}
