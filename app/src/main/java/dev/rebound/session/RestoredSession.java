package dev.rebound.session;

import dev.rebound.history.Branches;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.MessageEntry;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A session rebuilt from its history (a reopened chat).
 *
 * @param sessionId its id
 * @param history its entries, as saved
 * @param primary the model the user last chose, or null; a reopened session never starts on a fallback model
 */
public record RestoredSession(String sessionId, List<JournalEntry> history, ModelRef primary) {
    public RestoredSession {
        history = List.copyOf(history);
    }

    /**
     * The runtime context: every message of the current branch (see {@link Branches}) that was not a retried failure, in order — without prompts that never got a
     * reply (Rebound stopped while answering them). Failed attempts that a retry replaced and such orphaned prompts
     * stay in the history only, so they are never sent to the model again.
     */
    public List<ChatMessage> context() {
        List<ChatMessage> kept = new ArrayList<>();
        List<JournalEntry> branch = Branches.current(history);
        Set<String> retried = History.retriedIds(branch);
        for (JournalEntry e : branch) {
            if (e instanceof MessageEntry m && !retried.contains(m.message().id())) {
                kept.add(m.message());
            }
        }
        List<ChatMessage> context = new ArrayList<>();
        for (int i = 0; i < kept.size(); i++) {
            boolean orphan = kept.get(i) instanceof dev.rebound.transcript.UserMessage
                    && (i + 1 == kept.size() || kept.get(i + 1) instanceof dev.rebound.transcript.UserMessage);
            if (!orphan) {
                context.add(kept.get(i));
            }
        }
        return context;
    }

    /** Whether the last prompt never got a reply: Rebound stopped (was killed, crashed) while answering it. */
    public boolean interrupted() {
        ChatMessage last = null;
        List<JournalEntry> branch = Branches.current(history);
        Set<String> retried = History.retriedIds(branch);
        for (JournalEntry e : branch) {
            if (e instanceof MessageEntry m && !retried.contains(m.message().id())) {
                last = m.message();
            }
        }
        return last instanceof dev.rebound.transcript.UserMessage;
    }
}
