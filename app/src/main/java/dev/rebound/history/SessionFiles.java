package dev.rebound.history;

import java.nio.file.Path;
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
}
