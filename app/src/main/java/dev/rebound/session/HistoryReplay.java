package dev.rebound.session;

import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.MessageEnd;
import dev.rebound.event.MessageStart;
import dev.rebound.event.ModelChanged;
import dev.rebound.event.Notice;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryEndReason;
import dev.rebound.event.RetryFallbackApplied;
import dev.rebound.event.RetryFallbackReverted;
import dev.rebound.event.SessionEvent;
import dev.rebound.history.Branches;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.NoticeEntry;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The events a live session emitted for what its history records, in the order it emitted them: a reopened chat is
 * drawn by feeding these to the same code that drew the live one, so the two cannot disagree in how they render.
 *
 * <p>Only what the history keeps comes back: no streaming deltas (a message's start is followed by its whole end), no
 * turn boundaries, and for a retried attempt an {@code auto_retry_start} that holds what the chain's record says of
 * that attempt (its kind and wait); its retry limit is 0 and its due time the attempt's time plus the wait, because
 * the record keeps neither. These replayed events are for drawing a reopened chat, not for anyone who needs the live
 * values. Titles and retried marks emit nothing.
 */
public final class HistoryReplay {

    private HistoryReplay() {}

    /** The events of a history's current branch (a replaced prompt and what followed it are left out), in order. */
    public static List<SessionEvent> events(List<JournalEntry> entries) {
        List<JournalEntry> history = Branches.current(entries);
        Set<String> retried = History.retriedIds(history);
        List<SessionEvent> events = new ArrayList<>(history.size() * 2);
        for (int i = 0; i < history.size(); i++) {
            switch (history.get(i)) {
                case MessageEntry m
                when m.message() instanceof UserMessage user -> {
                    events.add(new MessageStart(user));
                    events.add(new MessageEnd(user));
                }
                case MessageEntry m
                when m.message() instanceof AssistantMessage reply -> {
                    events.add(new MessageStart(started(reply)));
                    events.add(new MessageEnd(reply));
                    if (retried.contains(reply.id())) {
                        events.add(retryOf(reply, history, i, retried));
                    }
                }
                case NoticeEntry n -> events.add(new Notice(n.level(), n.message()));
                case ModelChangeEntry c -> events.addAll(modelChange(c));
                case RetryChainEntry r -> {
                    RetryChainEnd chain = r.chain();
                    boolean success = chain.reason() == RetryEndReason.SUCCEEDED;
                    events.add(new AutoRetryEnd(
                            success, retriesMade(chain), success ? null : chain.finalError(), chain.reason()));
                    events.add(chain);
                }
                default -> {
                    // Titles and retried marks are not events of the chat; entries of a newer version are skipped.
                }
            }
        }
        return events;
    }

    /** The reply as its start announced it: no content, no stop reason yet. */
    private static AssistantMessage started(AssistantMessage reply) {
        return AssistantMessage.started(reply.id(), reply.provider(), reply.model(), reply.callStart());
    }

    /**
     * The {@code auto_retry_start} that followed a retried attempt: its number is its place among the turn's retried
     * attempts so far; kind and wait come from the chain's record that ends the turn, when it was saved.
     */
    private static AutoRetryStart retryOf(
            AssistantMessage reply, List<JournalEntry> history, int at, Set<String> retried) {
        int number = 1;
        for (int j = at - 1;
                j >= 0 && !(history.get(j) instanceof MessageEntry m && m.message() instanceof UserMessage);
                j--) {
            if (history.get(j) instanceof MessageEntry m
                    && retried.contains(m.message().id())) {
                number++;
            }
        }
        RetryAttempt attempt = null;
        for (int j = at + 1; j < history.size(); j++) {
            if (history.get(j) instanceof RetryChainEntry r) {
                List<RetryAttempt> attempts = r.chain().attempts();
                attempt = number - 1 < attempts.size() ? attempts.get(number - 1) : null;
                break;
            }
            if (history.get(j) instanceof MessageEntry m && m.message() instanceof UserMessage) {
                break;
            }
        }
        long delay = attempt == null || attempt.delayMs() == null ? 0 : attempt.delayMs();
        return new AutoRetryStart(
                number,
                0,
                delay,
                reply.errorMessage(),
                attempt == null ? null : attempt.errorKind(),
                reply.provider() + "/" + reply.model(),
                reply.credential(),
                reply.timestamp() + delay);
    }

    /** Retries the chain made: its record's last attempt number, or all of them after a success. */
    private static int retriesMade(RetryChainEnd chain) {
        if (chain.reason() == RetryEndReason.SUCCEEDED) {
            return chain.attempts().size();
        }
        return chain.attempts().isEmpty() ? 0 : chain.attempts().getLast().attempt();
    }

    private static List<SessionEvent> modelChange(ModelChangeEntry c) {
        ModelChanged changed = new ModelChanged(c.from(), c.to(), c.reason());
        String from = c.from() == null ? null : c.from().selector();
        return switch (c.reason() == null ? "" : c.reason()) {
            case ModelChanged.FALLBACK -> List.of(new RetryFallbackApplied(from, c.to().selector(), null), changed);
            case ModelChanged.REVERT ->
                from == null ? List.of(changed) : List.of(new RetryFallbackReverted(from, c.to().selector()), changed);
            default -> List.of(changed);
        };
    }
}
