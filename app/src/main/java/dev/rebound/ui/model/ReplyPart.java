package dev.rebound.ui.model;

/**
 * One part of a reply's rows (see {@link AssistantItem#partCountProperty()}).
 *
 * @param reply the reply
 * @param index which part, from 0; the first part carries the model's name, the last the reply's status
 */
public record ReplyPart(AssistantItem reply, int index) implements ChatRow {

    /** Whether this is the reply's last part (the one that grows while it streams). */
    public boolean last() {
        return index == reply.partCount() - 1;
    }
}
