package dev.rebound.session;

import dev.rebound.event.CredentialSwitched;
import dev.rebound.event.ModelChanged;
import dev.rebound.event.Notice;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.SessionEvent;
import dev.rebound.history.ModelChangeEntry;
import java.nio.file.Path;
import java.util.List;

/**
 * How a session's events go out: each with its {@link EventScope} (the session, its file, the turn), in order, and
 * those that belong in the chat's record (notices, key switches, retry chains, model changes) appended to its history
 * first.
 */
final class SessionEvents {
    private final EventBus bus = new EventBus();
    private final History history;
    private final String sessionId;
    private final Path sessionFile;

    SessionEvents(History history, String sessionId, Path sessionFile) {
        this.history = history;
        this.sessionId = sessionId;
        this.sessionFile = sessionFile;
    }

    AutoCloseable subscribe(ScopedSessionListener listener) {
        return bus.subscribe(listener);
    }

    /** Emits one event of a turn, or of no turn when {@code turn} is null, without recording it. */
    void emit(Turn turn, SessionEvent event) {
        bus.emit(event, new EventScope(sessionId, sessionFile, turn == null ? null : turn.id));
    }

    /** Emits events a policy returned, recording in the history those that belong there. */
    void record(Turn turn, List<SessionEvent> events) {
        for (SessionEvent event : events) {
            switch (event) {
                case Notice n -> history.notice(n.level(), n.message());
                // Kept as a notice, so a reopened chat still says why the key changed.
                case CredentialSwitched c -> history.notice(Notice.WARNING, ChatSession.credentialSwitchNotice(c));
                case RetryChainEnd r -> history.retryChain(r);
                case ModelChanged m ->
                    history.modelChange(
                            m.from(),
                            m.model(),
                            ModelChanged.USER.equals(m.reason())
                                    ? ModelChangeEntry.ROLE_USER
                                    : ModelChangeEntry.ROLE_FALLBACK,
                            m.reason());
                default -> {}
            }
            emit(turn, event);
        }
    }
}
