package dev.rebound.files;

import java.util.Objects;

/**
 * Something wrong with a settings or credentials file, or with an edit. Never carries a secret.
 *
 * @param severity an error makes an edit invalid; a warning does not
 * @param keyPath where: a dotted key path within settings.json ({@code retry.maxRetries}); paths of other files start
 *     with the file name ({@code credentials.json: openai[1].label}); empty when the problem is the whole file
 * @param message what is wrong, for a person to read
 */
public record FileProblem(Severity severity, String keyPath, String message) {

    /** How bad a problem is. */
    public enum Severity {
        ERROR,
        WARNING
    }

    public FileProblem {
        Objects.requireNonNull(severity, "severity");
        keyPath = keyPath == null ? "" : keyPath;
        Objects.requireNonNull(message, "message");
    }

    /** An error at that key path. */
    public static FileProblem error(String keyPath, String message) {
        return new FileProblem(Severity.ERROR, keyPath, message);
    }

    /** A warning at that key path. */
    public static FileProblem warning(String keyPath, String message) {
        return new FileProblem(Severity.WARNING, keyPath, message);
    }

    /** Whether this is an error. */
    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** {@code keyPath: message}, or the message alone when the problem is the whole file. */
    public String describe() {
        return keyPath.isEmpty() ? message : keyPath + ": " + message;
    }

    @Override
    public String toString() {
        return describe();
    }
}
