package dev.rebound.history;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Marks an earlier failed message as a retried attempt ({@code retried: true}), or un-marks it when its retry was
 * cancelled ({@code false}). The latest mark of a message wins. A retried attempt stays in the file but is not part of
 * the context a resumed session sends.
 *
 * @param messageId the {@link dev.rebound.transcript.ChatMessage#id() id of the message} it marks
 */
public record RetriedMark(String id, long ts, String messageId, boolean retried) implements JournalEntry {
    /** The {@code type} of this entry in the file. */
    public static final String TYPE = "retried";

    public RetriedMark {
        EntryIds.require(id);
        Objects.requireNonNull(messageId, "messageId");
    }

    /** The ids of the messages whose latest mark among these entries says they were retried. */
    public static Set<String> retriedIds(List<JournalEntry> entries) {
        Set<String> retried = new HashSet<>();
        for (JournalEntry entry : entries) {
            if (entry instanceof RetriedMark mark) {
                if (mark.retried()) {
                    retried.add(mark.messageId());
                } else {
                    retried.remove(mark.messageId());
                }
            }
        }
        return retried;
    }

    @Override
    public String type() {
        return TYPE;
    }
}
