package dev.rebound.session;

import dev.rebound.history.JournalEntry;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.ModelRef;
import java.util.List;

/**
 * Turns a loaded session file into a session to reopen: its entries, as read, and the model to start on — the user's last choice when it is still configured, never a fallback model (§6 of the retry policy).
 */
public final class SessionRestorer {
    private SessionRestorer() {}

    /**
     * @param defaultModel the model to use when the file names none that is still configured
     */
    public static RestoredSession restore(LoadedSession loaded, Settings settings, ModelRef defaultModel) {
        ModelRef primary = savedPrimary(loaded);
        if (primary == null || settings.findModel(primary).isEmpty()) {
            primary = defaultModel;
        }
        return new RestoredSession(loaded.header().id(), loaded.entries(), primary);
    }

    /** The primary model the file itself records, configured or not; null when it records none. */
    public static ModelRef savedPrimary(LoadedSession loaded) {
        ModelRef firstUsed = null;
        for (JournalEntry entry : loaded.entries()) {
            if (firstUsed == null
                    && entry instanceof MessageEntry m
                    && m.message() instanceof dev.rebound.transcript.AssistantMessage a) {
                firstUsed = a.modelRef();
            }
        }
        return primaryOf(loaded.entries(), firstUsed);
    }

    /**
     * The primary model: the last manual choice, else the model before the first automatic change, else the model
     * of the first reply. Fallback and revert changes never count.
     */
    private static ModelRef primaryOf(List<JournalEntry> history, ModelRef firstUsed) {
        ModelRef primary = null;
        for (JournalEntry e : history) {
            if (e instanceof ModelChangeEntry c) {
                if (ModelChangeEntry.ROLE_USER.equals(c.role())) {
                    primary = c.to();
                } else if (primary == null && c.from() != null && ModelChangeEntry.REASON_FALLBACK.equals(c.reason())) {
                    primary = c.from();
                }
            }
        }
        return primary != null ? primary : firstUsed;
    }
}
