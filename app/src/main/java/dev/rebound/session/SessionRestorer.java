package dev.rebound.session;

import dev.rebound.history.LoadedSession;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.NoticeEntry;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.history.TitleEntry;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.ModelRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns a loaded session file into a session to reopen: the history with retried failures marked, and the model to
 * start on — the user's last choice when it is still configured, never a fallback model (§6 of the retry policy).
 */
public final class SessionRestorer {
    private SessionRestorer() {}

    /**
     * @param defaultModel the model to use when the file names none that is still configured
     */
    public static RestoredSession restore(LoadedSession loaded, Settings settings, ModelRef defaultModel) {
        Set<String> retried = loaded.retriedMessageIds();
        List<HistoryEntry> history = new ArrayList<>();
        ModelRef firstUsed = null;
        for (var entry : loaded.entries()) {
            switch (entry) {
                case MessageEntry m -> {
                    history.add(new HistoryEntry.Message(
                            m.message(), retried.contains(m.message().id()), m.ts()));
                    if (firstUsed == null && m.message() instanceof dev.rebound.transcript.AssistantMessage a) {
                        firstUsed = a.modelRef();
                    }
                }
                case ModelChangeEntry c ->
                    history.add(new HistoryEntry.ModelChange(c.from(), c.to(), c.role(), c.reason(), c.ts()));
                case RetryChainEntry r -> history.add(new HistoryEntry.RetryChain(r.chain(), r.ts()));
                case NoticeEntry n -> history.add(new HistoryEntry.Notice(n.level(), n.message(), n.ts()));
                case TitleEntry t -> history.add(new HistoryEntry.Title(t.title(), t.ts()));
                default -> {
                    // Retried marks are folded into the messages above; entries of a newer version are skipped.
                }
            }
        }
        ModelRef primary = primaryOf(history, firstUsed);
        if (primary == null || settings.findModel(primary).isEmpty()) {
            primary = defaultModel;
        }
        return new RestoredSession(loaded.header().id(), history, primary);
    }

    /** The primary model the file itself records, configured or not; null when it records none. */
    public static ModelRef savedPrimary(LoadedSession loaded) {
        List<HistoryEntry> history = new ArrayList<>();
        ModelRef firstUsed = null;
        for (var entry : loaded.entries()) {
            if (entry instanceof ModelChangeEntry c) {
                history.add(new HistoryEntry.ModelChange(c.from(), c.to(), c.role(), c.reason(), c.ts()));
            } else if (firstUsed == null
                    && entry instanceof MessageEntry m
                    && m.message() instanceof dev.rebound.transcript.AssistantMessage a) {
                firstUsed = a.modelRef();
            }
        }
        return primaryOf(history, firstUsed);
    }

    /**
     * The primary model: the last manual choice, else the model before the first automatic change, else the model
     * of the first reply. Fallback and revert changes never count.
     */
    private static ModelRef primaryOf(List<HistoryEntry> history, ModelRef firstUsed) {
        ModelRef primary = null;
        for (HistoryEntry e : history) {
            if (e instanceof HistoryEntry.ModelChange c) {
                if ("user".equals(c.role())) {
                    primary = c.to();
                } else if (primary == null && c.from() != null && "fallback".equals(c.reason())) {
                    primary = c.from();
                }
            }
        }
        return primary != null ? primary : firstUsed;
    }
}
