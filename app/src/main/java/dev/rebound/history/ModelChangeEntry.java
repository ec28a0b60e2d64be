package dev.rebound.history;

import dev.rebound.transcript.ModelRef;
import java.util.Objects;

/**
 * The session's model changed.
 *
 * @param from the model before, or null when the session had none
 * @param to the model after
 * @param role {@value #ROLE_USER} for a manual choice, {@value #ROLE_FALLBACK} for an automatic one (a fallback or a
 *     revert); a resumed session never starts on a model a fallback chose
 * @param reason {@value #REASON_USER}, {@value #REASON_FALLBACK} or {@value #REASON_REVERT}
 */
public record ModelChangeEntry(String id, long ts, ModelRef from, ModelRef to, String role, String reason)
        implements JournalEntry {
    /** The {@code type} of this entry in the file. */
    public static final String TYPE = "model_change";
    /** Role of a change the user made. */
    public static final String ROLE_USER = "user";
    /** Role of a change Rebound made on its own. */
    public static final String ROLE_FALLBACK = "fallback";
    /** Reason of a change the user made. */
    public static final String REASON_USER = "user";
    /** Reason of a switch to a fallback model. */
    public static final String REASON_FALLBACK = "fallback";
    /** Reason of a return from a fallback model to the one the user chose. */
    public static final String REASON_REVERT = "revert";

    public ModelChangeEntry {
        EntryIds.require(id);
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String type() {
        return TYPE;
    }
}
