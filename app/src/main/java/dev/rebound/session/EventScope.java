package dev.rebound.session;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a session event happened: which session, its file, and the turn when it happened during one. Handed to
 * {@link ScopedSessionListener}s with every event, so hosts that see several sessions (the plugin host, RPC) can say
 * which chat and turn each event belongs to.
 *
 * @param sessionId the session's id
 * @param sessionFile the file the session is saved to, or null when it is not saved
 * @param turnId the turn, or null for an event outside a turn (a model chosen or a notice given between turns)
 */
public record EventScope(String sessionId, Path sessionFile, String turnId) {
    /** Requires a session id. */
    public EventScope {
        Objects.requireNonNull(sessionId, "sessionId");
    }
}
