package dev.rebound.ui.model;

/**
 * A small line in the chat that explains what happened: a fallback, a credential switch, a warning.
 *
 * @param level how it is shown
 * @param text what happened, in plain words
 */
public record NoticeItem(Level level, String text) implements ChatItem, ChatRow {

    /** How prominent a notice is. */
    public enum Level {
        INFO,
        WARNING,
        ERROR;

        /** The level of a {@link dev.rebound.event.Notice} level name; unknown names are shown as info. */
        public static Level of(String name) {
            return switch (name == null ? "" : name) {
                case dev.rebound.event.Notice.WARNING -> WARNING;
                case dev.rebound.event.Notice.ERROR -> ERROR;
                default -> INFO;
            };
        }
    }
}
