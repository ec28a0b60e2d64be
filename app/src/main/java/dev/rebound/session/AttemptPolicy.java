package dev.rebound.session;

import dev.rebound.event.SessionEvent;
import dev.rebound.transcript.AssistantMessage;
import java.util.List;

/**
 * The decision seam of a turn: after each provider call the session asks whether the turn continues (a retry) or
 * ends. The retry engine implements it. Called on the session's thread only, before {@code agent_end} is emitted —
 * also after a user abort, so that a running retry chain can be closed. Decisions are made in memory: an
 * implementation must not wait on the disk or the network (persistence happens after, elsewhere).
 */
public interface AttemptPolicy {

    /** The decision for this call's result; never null. */
    AgentEndDecision onAgentEnd(AttemptResult result);

    /**
     * The turn ended in a way the policy was not asked about (an internal error, an interrupt; also after a decision
     * whose events could not all be delivered): close any running chain and return its closing events. A retry that
     * was scheduled and never made does not count as made.
     *
     * @param unjudged the reply of the last call, when the policy has not judged it (a call that broke, or a decision
     *     that threw): the chain's last attempt; null when there is none
     */
    default List<SessionEvent> abandon(String turnId, String reason, AssistantMessage unjudged) {
        return List.of();
    }

    /**
     * Before each prompt's turn starts: events to emit first (e.g. the revert to the primary model once its cooldown
     * has expired).
     */
    default List<SessionEvent> beforeTurn() {
        return List.of();
    }

    /** The user chose a model: any fallback state is cleared. */
    default void modelChosen() {}

    /** A policy that never retries. */
    static AttemptPolicy finishAlways() {
        return result -> AgentEndDecision.FINISH;
    }
}
