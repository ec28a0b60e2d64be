package dev.rebound.api;

/**
 * A message for people: a warning about settings, a skipped fallback entry, a key switched, a hint.
 *
 * @param session the chat
 * @param turnId the turn whose decisions gave it (advice after a failure, a key switch); null for a notice about
 *     the app or the chat rather than a turn (a settings warning, a plugin's failure), even while a turn runs
 * @param level how much it matters
 * @param message what happened and what to do, in plain words
 */
public record Notice(SessionRef session, String turnId, NoticeLevel level, String message) implements SessionEvent {
    @Override
    public String type() {
        return "notice";
    }
}
