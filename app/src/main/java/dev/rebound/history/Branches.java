package dev.rebound.history;

import java.util.ArrayList;
import java.util.List;

/**
 * The current branch of a conversation whose last prompt was regenerated or edited: the entries as the file holds
 * them, with each {@link RewindEntry}'s superseded prompt and what followed it taken out. What is taken out stays in
 * the file. Titles, system prompts, damage notes and the user's own model choices are not part of a turn and stay; so do entries this
 * version does not know. A rewind naming a prompt that is not in the branch (a damaged file), or with no prompt after
 * it (the process stopped before writing the new one), changes nothing.
 */
public final class Branches {

    private Branches() {}

    /** The entries of the current branch, in order; the list itself when it holds no rewind. */
    public static List<JournalEntry> current(List<JournalEntry> entries) {
        if (entries.stream().noneMatch(RewindEntry.class::isInstance)) {
            return entries;
        }
        List<JournalEntry> branch = new ArrayList<>(entries.size());
        for (JournalEntry entry : entries) {
            if (!(entry instanceof RewindEntry rewind)) {
                branch.add(entry);
                continue;
            }
            int from = indexOfMessage(branch, rewind.replaces());
            if (from < 0 || !promptFollows(entries, rewind)) {
                continue;
            }
            List<JournalEntry> kept = new ArrayList<>(branch.subList(0, from));
            for (JournalEntry later : branch.subList(from, branch.size())) {
                if (outlivesItsTurn(later)) {
                    kept.add(later);
                }
            }
            branch = kept;
        }
        return branch;
    }

    /** Whether the history holds any rewind (a chat whose file keeps replaced turns). */
    public static boolean rewound(List<JournalEntry> entries) {
        return entries.stream().anyMatch(RewindEntry.class::isInstance);
    }

    /**
     * Whether a new prompt was written after the rewind: a process stopped between the two leaves a rewind with nothing
     * in place of what it replaces, and that rewind changes nothing (the last exchange stays as it was).
     */
    private static boolean promptFollows(List<JournalEntry> entries, RewindEntry rewind) {
        boolean after = false;
        for (JournalEntry entry : entries) {
            if (entry == rewind) {
                after = true;
            } else if (after
                    && entry instanceof MessageEntry m
                    && m.message() instanceof dev.rebound.transcript.UserMessage) {
                return true;
            }
        }
        return false;
    }

    private static int indexOfMessage(List<JournalEntry> entries, String messageId) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i) instanceof MessageEntry m && m.message().id().equals(messageId)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean outlivesItsTurn(JournalEntry entry) {
        return switch (entry) {
            case TitleEntry t -> true;
            case SystemPromptEntry p -> true;
            case DamageNote d -> true;
            case UnknownEntry u -> true;
            case ModelChangeEntry c -> ModelChangeEntry.ROLE_USER.equals(c.role());
            default -> false;
        };
    }
}
