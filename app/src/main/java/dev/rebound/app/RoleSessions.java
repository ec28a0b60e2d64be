package dev.rebound.app;

import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.session.RoleCalls;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ModelRef;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the requests of model roles ({@code title}, ...) as one-turn sessions of their own: the same retry engine,
 * credential pool and cooldowns as the chats, the role's fallback chain, no chat file. Their events stay in the log:
 * they belong to no chat the user sees. Closing stops the requests still running.
 */
final class RoleSessions implements RoleCalls, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RoleSessions.class);

    private final BiFunction<String, ModelRef, ChatSession> sessions;
    private final Set<ChatSession> running = ConcurrentHashMap.newKeySet();
    /** Guarded by {@code this}. */
    private boolean closed;

    /** @param sessions makes a session for a role, starting on a model */
    RoleSessions(BiFunction<String, ModelRef, ChatSession> sessions) {
        this.sessions = sessions;
    }

    @Override
    public Optional<AssistantMessage> call(String role, ModelRef model, String prompt) {
        ChatSession session = sessions.apply(role, model);
        try {
            PromptResult result;
            synchronized (this) {
                // Checked and started under the lock that close() takes: no request starts after the app closed.
                if (closed) {
                    return Optional.empty();
                }
                running.add(session);
                result = session.prompt(prompt, null);
            }
            if (!(result instanceof PromptResult.Accepted accepted)) {
                LOG.info("The {} request was not made: {}", role, ((PromptResult.Rejected) result).reason());
                return Optional.empty();
            }
            return Optional.of(accepted.completion().join().finalMessage());
        } catch (CompletionException | CancellationException e) {
            LOG.warn("The {} request failed inside Rebound", role, e);
            return Optional.empty();
        } finally {
            running.remove(session);
            session.close();
        }
    }

    /**
     * Ends the waits of role requests that are waiting to retry (no further attempt starts), and lets a request already
     * on the wire finish: a title on its way is worth the short wait the app gives its background work.
     */
    void stopRetrying() {
        running.forEach(ChatSession::abortRetry);
    }

    /** Stops every role request still running (each ends as aborted); later calls make no request. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        running.forEach(ChatSession::abort);
    }
}
