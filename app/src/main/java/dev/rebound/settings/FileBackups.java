package dev.rebound.settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Set;

/** Keeps a copy of a file before Rebound replaces content it could not read: {@code settings.json.bak-20261201T101500Z}. */
public final class FileBackups {
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private FileBackups() {
    }

    /**
     * Copies a file next to itself as {@code <name>.bak-<UTC timestamp>} (with {@code -2}, {@code -3}... appended if
     * that name is taken).
     *
     * @param permsOrNull POSIX permissions of the copy (owner-only when null)
     * @return the copy
     */
    public static Path keepCopy(Path file, Clock clock, Set<PosixFilePermission> permsOrNull) throws IOException {
        byte[] content = Files.readAllBytes(file);
        String base = file.getFileName() + ".bak-" + STAMP.format(clock.instant());
        Path copy = file.resolveSibling(base);
        for (int n = 2; Files.exists(copy); n++) {
            copy = file.resolveSibling(base + "-" + n);
        }
        AtomicFiles.writeAtomically(copy, content, permsOrNull);
        return copy;
    }
}
