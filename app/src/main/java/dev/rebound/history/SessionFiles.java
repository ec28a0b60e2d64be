package dev.rebound.history;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Names of session files: {@code <session-id>.jsonl} in the sessions directory. A session id is 1 to 128 letters,
 * digits, {@code .}, {@code _} or {@code -}, not starting with a dot, so that it is a file name on every platform and
 * can never point outside the directory.
 */
public final class SessionFiles {
    /** The extension of a session file. */
    public static final String EXTENSION = ".jsonl";

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    private SessionFiles() {}

    /** Whether a text can be a session id. */
    public static boolean isValidId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /**
     * The file of a session.
     *
     * @throws IllegalArgumentException when the id is not a valid session id
     */
    public static Path fileOf(Path sessionsDir, String id) {
        if (!isValidId(id)) {
            throw new IllegalArgumentException("'" + id + "' is not a session id (1 to 128 letters, digits, '.', '_' "
                    + "or '-', not starting with a dot)");
        }
        return sessionsDir.resolve(id + EXTENSION);
    }

    /** The session id a file name gives ({@code abc.jsonl} → {@code abc}), or empty when it is not a session file. */
    public static Optional<String> idOf(Path file) {
        Path name = file.getFileName();
        if (name == null) {
            return Optional.empty();
        }
        String text = name.toString();
        if (!text.endsWith(EXTENSION)) {
            return Optional.empty();
        }
        String id = text.substring(0, text.length() - EXTENSION.length());
        return isValidId(id) ? Optional.of(id) : Optional.empty();
    }

    /**
     * The session file of {@code sessionsDir} written last (by modification time; of two written in the same
     * instant, either), or empty when there is none or no such directory. Reads the directory, not the files.
     *
     * @throws IOException when the directory exists but cannot be read
     */
    public static Optional<Path> newest(Path sessionsDir) throws IOException {
        Path newest = null;
        long newestMs = Long.MIN_VALUE;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(sessionsDir, "*" + EXTENSION)) {
            for (Path file : files) {
                if (idOf(file).isEmpty()) {
                    continue;
                }
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(file, BasicFileAttributes.class);
                } catch (NoSuchFileException e) {
                    continue; // deleted while listed
                }
                long modified = attributes.lastModifiedTime().toMillis();
                if (attributes.isRegularFile() && modified > newestMs) {
                    newest = file;
                    newestMs = modified;
                }
            }
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.ofNullable(newest);
    }
}
