package dev.rebound.session;

import dev.rebound.event.Notice;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Makes sessions with the app's shared dependencies (RPC {@code new_session} and {@code --session}, the UI). */
public interface SessionFactory {

    /**
     * A new, empty session on the default model, saved to a new file under {@code sessions/}; its notices say when
     * the file could not be created (the chat then works unsaved).
     */
    Opened create();

    /**
     * The chat a window starts with: the saved chat {@code emptyChatId} when it still holds nothing (the chat the
     * window started with last time, closed or killed before its first message), reopened, else {@link #create()}; so
     * opening and closing the app does not leave an empty chat behind each time. This default, for sessions that are
     * not saved, always creates.
     *
     * @param emptyChatId the id of the chat the window started with last time, or null
     */
    default Opened reuseEmptyOrCreate(String emptyChatId) {
        return create();
    }

    /**
     * Reopens a saved session: its history, its runtime context without retried failures, the user's model (never a
     * fallback). New entries are appended to the same file.
     *
     * @throws IOException when the file cannot be read at all
     */
    Opened resume(Path file) throws IOException;

    /**
     * A session and what its host should show first, as (level, message) notices: what loading its file found
     * (skipped lines, an interrupted reply), or that it cannot be saved. They are shown, not written to the chat.
     */
    record Opened(ChatSession session, List<Notice> notices) {}
}
