package dev.rebound.session;

import dev.rebound.api.ChatMessage;
import dev.rebound.api.ModelRef;
import java.util.ArrayList;
import java.util.List;

/**
 * A session rebuilt from its history (a reopened chat).
 *
 * @param sessionId its id
 * @param history its entries, as saved
 * @param primary the model the user last chose, or null; a reopened session never starts on a fallback model
 */
public record RestoredSession(String sessionId, List<HistoryEntry> history, ModelRef primary) {
    public RestoredSession {
        history = List.copyOf(history);
    }

    /**
     * The runtime context: every message that was not a retried failure, in order. Failed attempts that a retry
     * replaced stay in the history only, so they are never sent to the model again.
     */
    public List<ChatMessage> context() {
        List<ChatMessage> context = new ArrayList<>();
        for (HistoryEntry e : history) {
            if (e instanceof HistoryEntry.Message m && !m.retried()) {
                context.add(m.message());
            }
        }
        return context;
    }
}
