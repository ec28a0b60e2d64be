package dev.rebound.api;

import java.util.Objects;

/**
 * The chat an event belongs to, handed with every event as OkHttp hands the {@code Call} to every
 * {@code EventListener} method: two chats streaming at once give two streams a plugin can tell apart by {@link #id()}.
 *
 * @param id the session id, unique and stable across restarts of the app (a reopened chat keeps its id)
 * @param chatFile the name of the chat's file in the sessions folder ({@code <session id>.jsonl}),
 *     without its folder; null for a chat that is not saved (one-shot {@code -p}, {@code --no-session})
 */
public record SessionRef(String id, String chatFile) {
    /** Requires an id. */
    public SessionRef {
        Objects.requireNonNull(id, "id");
    }
}
