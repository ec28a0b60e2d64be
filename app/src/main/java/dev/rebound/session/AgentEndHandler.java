package dev.rebound.session;

/**
 * Decides, when a provider call of a turn has ended, whether the turn continues. The retry engine implements it; the
 * session asks it once per call, on the session thread, before emitting {@code agent_end} — also after a user abort,
 * so that a running retry chain can be closed.
 */
public interface AgentEndHandler {

    /** The decision for this call's result; never null. */
    AgentEndDecision onAgentEnd(AttemptResult result);

    /**
     * Cancels a scheduled retry, if any: its {@link AgentEndDecision.ScheduledRetry#awaitDue()} returns
     * {@code Cancelled}. Safe from any thread, and when nothing is scheduled.
     *
     * @param userAbort true when the user stopped the whole turn ({@code abort}), false for {@code abortRetry}
     */
    void cancelPending(boolean userAbort);

    /** Ends the current backoff early so the pending retry starts at once; does nothing when none is pending. */
    void retryNow();

    /** Whether a retry chain is running, and its attempt. */
    RetryStatus status();

    /** A handler that never retries. */
    static AgentEndHandler finishAlways() {
        return new AgentEndHandler() {
            @Override
            public AgentEndDecision onAgentEnd(AttemptResult result) {
                return AgentEndDecision.FINISH;
            }

            @Override
            public void cancelPending(boolean userAbort) {
            }

            @Override
            public void retryNow() {
            }

            @Override
            public RetryStatus status() {
                return RetryStatus.IDLE;
            }
        };
    }
}
