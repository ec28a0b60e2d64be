package dev.rebound.session;

import dev.rebound.event.AgentEnd;
import dev.rebound.event.AgentStart;
import dev.rebound.event.MessageEnd;
import dev.rebound.event.MessageStart;
import dev.rebound.event.Notice;
import dev.rebound.event.SessionEvent;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop of a turn: the prompt recorded, then one provider call after another until the {@link AttemptPolicy}
 * finishes the turn. A retried failure leaves the runtime context (it stays in the history, marked retried) and comes
 * back if its retry never delivers. Every turn ends with {@code agent_end{willRetry:false}}, even after an internal
 * error, and only then is its completion signalled.
 */
final class TurnLoop {
    private static final Logger LOG = LoggerFactory.getLogger(TurnLoop.class);

    private final IdGenerator ids;
    private final Clock clock;
    private final SessionModel model;
    private final RuntimeContext context;
    private final History history;
    private final SessionEvents events;
    private final AttemptPolicy attempts;
    private final ProviderCall call;
    /** Makes the turn stop counting as running, before its closing events. */
    private final Consumer<Turn> release;

    TurnLoop(
            IdGenerator ids,
            Clock clock,
            SessionModel model,
            RuntimeContext context,
            History history,
            SessionEvents events,
            AttemptPolicy attempts,
            ProviderCall call,
            Consumer<Turn> release) {
        this.ids = ids;
        this.clock = clock;
        this.model = model;
        this.context = context;
        this.history = history;
        this.events = events;
        this.attempts = attempts;
        this.call = call;
        this.release = release;
    }

    /** Runs a turn to its end on the calling thread (the session's); completes {@link Turn#completion} last. */
    void run(Turn turn) {
        AssistantMessage last = null;
        // The failure taken out of the context for a retry that has not delivered its own reply yet.
        AssistantMessage awaitingReplacement = null;
        // The reply of the last call, until the attempt policy has judged it.
        AssistantMessage unjudged = null;
        // A decision taken on a reply whose writing then failed: its events are still owed.
        AgentEndDecision undelivered = null;
        boolean ended = false;
        Throwable failure = null;
        try {
            if (turn.replaces != null) {
                history.rewind(turn.replaces, turn.replaceReason);
            }
            UserMessage user = new UserMessage(ids.next(), turn.prompt, clock.millis());
            context.add(user);
            // A revert due before the prompt goes out first, live and in the record, so a reopened chat shows it
            // where the live one did.
            events.record(turn, attempts.beforeTurn());
            history.message(user);
            events.emit(turn, new AgentStart(turn.id));
            events.emit(turn, new MessageStart(user));
            events.emit(turn, new MessageEnd(user));
            for (int attempt = 0; ; attempt++) {
                if (attempt > 0) {
                    events.emit(turn, new AgentStart(turn.id));
                }
                last = runAttempt(turn);
                awaitingReplacement = null;
                unjudged = last;
                // Judged before the reply is written: a retry's wait counts from the decision, so the write's fsync
                // (milliseconds; far more on a slow or network disk) passes inside the wait instead of lengthening
                // it. The file's order and the events' order are the same either way.
                AgentEndDecision decision;
                try {
                    decision = attempts.onAgentEnd(new AttemptResult(turn.id, attempt, last, turn.userAborted));
                } catch (RuntimeException | Error e) {
                    settleAfter(turn, last, e);
                    throw e;
                }
                unjudged = null;
                // Owed until its events go out: if the turn fails before that, they go out as it closes.
                undelivered = decision;
                if (decision.resetServerState()) {
                    // A stale replay: the server no longer knows what it was told; the next call sends everything,
                    // whether it is this turn's retry or the next turn.
                    context.server().forget(last.provider());
                }
                settle(turn, last);
                if (decision instanceof AgentEndDecision.Finish finish) {
                    undelivered = null;
                    endTurn(turn, finish.events());
                    ended = true;
                    break;
                }
                AgentEndDecision.Retry retry = (AgentEndDecision.Retry) decision;
                awaitingReplacement = last;
                context.remove(last.id());
                history.markRetried(last.id(), true);
                events.emit(turn, new AgentEnd(turn.id, true));
                undelivered = null;
                events.record(turn, retry.events());
                if (retry.retry().awaitDue() instanceof AgentEndDecision.Resume.Cancelled cancelled) {
                    // Not retried after all: the failure is what the user is left with.
                    restore(awaitingReplacement);
                    awaitingReplacement = null;
                    endTurn(turn, cancelled.events());
                    ended = true;
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ProviderCall.Broken broken) {
            LOG.error("Turn {} failed unexpectedly", turn.id, broken.getCause());
            // The broken call's reply is in the chat and its file (runAttempt); it replaced any failure a retry was
            // for.
            last = broken.partial();
            unjudged = last;
            awaitingReplacement = null;
            failure = broken.getCause();
        } catch (RuntimeException | Error e) {
            LOG.error("Turn {} failed unexpectedly", turn.id, e);
            failure = e;
        } finally {
            AssistantMessage finalMessage = last;
            try {
                if (!ended) {
                    // The retry never delivered: the failure it was to replace is what the turn leaves, as after a
                    // cancel.
                    restore(awaitingReplacement);
                    String what = failure == null ? "The turn was interrupted" : internalError(failure);
                    // A decision whose events had not gone out yet (its reply, or the retried mark, could not be
                    // written) still sends them, so a chain it started or ended, and a switch of model or key it made,
                    // are announced and closed as they would have been; a retry it scheduled is not made.
                    List<SessionEvent> closing = new ArrayList<>();
                    if (undelivered instanceof AgentEndDecision.Finish finish) {
                        closing.addAll(finish.events());
                    } else if (undelivered instanceof AgentEndDecision.Retry retry) {
                        closing.addAll(retry.events());
                    }
                    if (!(undelivered instanceof AgentEndDecision.Finish)) {
                        closing.addAll(attempts.abandon(turn.id, what, unjudged));
                    }
                    if (failure != null) {
                        closing.add(new Notice(
                                Notice.ERROR,
                                what + ". The details are in the log; you can send your " + "message again."));
                    }
                    endTurn(turn, closing);
                }
                if (finalMessage == null) {
                    finalMessage = emptyAborted(turn);
                }
                LOG.info(
                        "Turn {} ended: {}{}",
                        turn.id,
                        finalMessage.stopReason(),
                        finalMessage.errorMessage() == null ? "" : " (" + finalMessage.errorMessage() + ")");
            } catch (RuntimeException | Error closingFailed) {
                // Even closing the turn failed (memory still short, a listener throwing): the turn is released and
                // its completion is still completed below, so the session takes the next prompt and the host is
                // not left waiting.
                release.accept(turn);
                LOG.error("Turn {} could not be closed cleanly", turn.id, closingFailed);
            } finally {
                turn.completion.complete(
                        new TurnOutcome(turn.id, finalMessage != null ? finalMessage : lastResort(turn)));
            }
        }
    }

    /** What an internal error ending a turn is called, live and in its file. */
    static String internalError(Throwable failure) {
        return "Something went wrong inside Rebound while answering ("
                + failure.getClass().getSimpleName() + ")";
    }

    /** Puts a failure taken out for a retry back into the context, no longer marked retried; null does nothing. */
    private void restore(AssistantMessage failure) {
        if (failure != null) {
            context.add(failure);
            history.markRetried(failure.id(), false);
        }
    }

    /**
     * Ends a turn: it stops counting as running (so a host reacting to the last events can prompt), then the closing
     * events go out and the turn's last event, {@code agent_end{willRetry:false}}.
     */
    private void endTurn(Turn turn, List<SessionEvent> closing) {
        release.accept(turn);
        events.record(turn, closing);
        events.emit(turn, new AgentEnd(turn.id, false));
    }

    private AssistantMessage runAttempt(Turn turn) {
        String messageId = ids.next();
        ModelRef current = model.current();
        long startedAt = clock.millis();
        events.emit(
                turn,
                new MessageStart(AssistantMessage.started(messageId, current.provider(), current.id(), startedAt)));
        AssistantMessage message;
        ProviderCall.Broken broken = null;
        try {
            message = call.call(turn, messageId, current).withStartedAt(startedAt);
        } catch (ProviderCall.Broken e) {
            message = e.partial().withStartedAt(startedAt);
            broken = e;
        }
        context.add(message);
        if (broken != null) {
            settle(turn, message);
            throw broken;
        }
        return message;
    }

    /** A reply's end: written to the chat's file, then {@code message_end}. */
    private void settle(Turn turn, AssistantMessage message) {
        history.message(message);
        events.emit(turn, new MessageEnd(message));
    }

    /** {@link #settle} after judging the reply failed: the reply is still kept; a second failure rides on the first. */
    private void settleAfter(Turn turn, AssistantMessage message, Throwable judging) {
        try {
            settle(turn, message);
        } catch (RuntimeException | Error e) {
            judging.addSuppressed(e);
        }
    }

    /** The turn's outcome when even building it failed: an aborted reply with no content, built without the model. */
    private AssistantMessage lastResort(Turn turn) {
        try {
            return emptyAborted(turn);
        } catch (RuntimeException | Error e) {
            return new AssistantMessage(
                    turn.id,
                    List.of(),
                    "",
                    "",
                    null,
                    null,
                    null,
                    StopReason.ABORTED,
                    ChatSession.ABORT_MESSAGE,
                    null,
                    null,
                    0);
        }
    }

    private AssistantMessage emptyAborted(Turn turn) {
        ModelRef current = model.current();
        return new AssistantMessage(
                turn.id,
                List.of(),
                current == null ? "" : current.provider(),
                current == null ? "" : current.id(),
                null,
                null,
                null,
                StopReason.ABORTED,
                ChatSession.ABORT_MESSAGE,
                null,
                null,
                clock.millis());
    }
}
