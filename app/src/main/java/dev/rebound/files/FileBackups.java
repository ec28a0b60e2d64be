package dev.rebound.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import java.util.regex.Pattern;

/** Keeps a copy of a file before Rebound replaces content it could not read: {@code settings.json.bak-20261201T101500Z}. */
public final class FileBackups {
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final Pattern KIND = Pattern.compile("[A-Za-z0-9_-]+");

    private FileBackups() {}

    /**
     * Copies a file next to itself as {@code <name>.bak-<UTC timestamp>} (with {@code -2}, {@code -3}... appended if
     * that name is taken).
     *
     * @param permsOrNull POSIX permissions of the copy (owner-only when null)
     * @return the copy
     */
    public static Path keepCopy(Path file, Clock clock, Set<PosixFilePermission> permsOrNull) throws IOException {
        return keepCopy(file, "bak", clock, permsOrNull);
    }

    /**
     * Copies a file next to itself as {@code <name>.<kind>-<UTC timestamp>} (with {@code -2}, {@code -3}... appended if
     * that name is taken), for copies that say why they were kept: {@code expiries.json.corrupt-20261201T101500Z}.
     *
     * @param kind a plain word ({@code bak}, {@code corrupt}): letters, digits, {@code _} or {@code -}
     * @param permsOrNull POSIX permissions of the copy (owner-only when null)
     * @return the copy
     */
    public static Path keepCopy(Path file, String kind, Clock clock, Set<PosixFilePermission> permsOrNull)
            throws IOException {
        if (kind == null || !KIND.matcher(kind).matches()) {
            throw new IllegalArgumentException("a backup kind must be a plain word, not '" + kind + "'");
        }
        byte[] content = Files.readAllBytes(file);
        String base = file.getFileName() + "." + kind + "-" + STAMP.format(clock.instant());
        Path copy = file.resolveSibling(base);
        for (int n = 2; Files.exists(copy); n++) {
            copy = file.resolveSibling(base + "-" + n);
        }
        AtomicFiles.writeAtomically(copy, content, permsOrNull);
        return copy;
    }
}
