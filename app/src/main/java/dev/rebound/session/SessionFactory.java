package dev.rebound.session;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Makes sessions with the app's shared dependencies (RPC {@code new_session} and {@code --session}, the UI). */
public interface SessionFactory {

    /** A new, empty session on the default model, saved to a new file under {@code sessions/}. */
    ChatSession create();

    /**
     * Reopens a saved session: its history, its runtime context without retried failures, the user's model (never a
     * fallback). New entries are appended to the same file.
     *
     * @throws IOException when the file cannot be read at all
     */
    Resumed resume(Path file) throws IOException;

    /**
     * A reopened session and what loading its file found (skipped lines...), as (level, message) notices to show.
     */
    record Resumed(ChatSession session, List<String[]> notices) {
    }
}
