package dev.rebound.event;

/**
 * A message for people: a warning about settings, a skipped fallback entry, a first-run hint.
 *
 * @param level {@code info}, {@code warning} or {@code error}
 * @param message what happened and what to do, in plain words
 */
public record Notice(String level, String message) implements SessionEvent {
    public static final String INFO = "info";
    public static final String WARNING = "warning";
    public static final String ERROR = "error";

    @Override
    public String type() {
        return "notice";
    }
}
