package dev.rebound.session;

/**
 * Decides, when a provider call of a turn has ended, whether the turn continues. The retry engine implements it; the
 * session asks it once per call, on the session thread, before emitting {@code agent_end}.
 */
public interface AgentEndHandler {

    /** The decision for this call's result; never null. */
    AgentEndDecision onAgentEnd(AttemptResult result);

    /**
     * Cancels a scheduled retry, if any, releasing {@link AgentEndDecision.ScheduledRetry#awaitDue()} with false. Safe to
     * call from any thread, and when nothing is scheduled.
     */
    void cancelPending();

    /** A handler that never retries. */
    static AgentEndHandler finishAlways() {
        return new AgentEndHandler() {
            @Override
            public AgentEndDecision onAgentEnd(AttemptResult result) {
                return AgentEndDecision.FINISH;
            }

            @Override
            public void cancelPending() {
            }
        };
    }
}
