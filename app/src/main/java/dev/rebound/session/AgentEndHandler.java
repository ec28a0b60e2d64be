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
     * @return what there was to cancel, decided in the same step as the cancel
     */
    RetryCancel cancelPending(boolean userAbort);

    /**
     * Ends the current backoff early so the pending retry starts at once. Does nothing when none is pending, or when
     * {@code attempt} is given and is not the pending retry's number (a second click meant for the wait just skipped).
     */
    void retryNow(java.util.OptionalInt attempt);

    /**
     * The turn ended in a way the handler was not asked about (an internal error): close any running chain and return
     * its closing events.
     */
    default java.util.List<dev.rebound.event.SessionEvent> abandon(String turnId, String reason) {
        return java.util.List.of();
    }

    /** Whether a retry chain is running, and its attempt. */
    RetryStatus status();

    /**
     * Called on the session thread before each prompt's turn starts; returns events to emit first (e.g. the revert to
     * the primary model once its cooldown has expired).
     */
    default java.util.List<dev.rebound.event.SessionEvent> beforeTurn() {
        return java.util.List.of();
    }

    /** The user chose a model: any fallback state is cleared. */
    default void modelChosen() {
    }

    /** The active model fallback, if any. */
    default java.util.Optional<FallbackStatus> fallback() {
        return java.util.Optional.empty();
    }

    /** A handler that never retries. */
    static AgentEndHandler finishAlways() {
        return new AgentEndHandler() {
            @Override
            public AgentEndDecision onAgentEnd(AttemptResult result) {
                return AgentEndDecision.FINISH;
            }

            @Override
            public RetryCancel cancelPending(boolean userAbort) {
                return RetryCancel.NONE;
            }

            @Override
            public void retryNow(java.util.OptionalInt attempt) {
            }

            @Override
            public RetryStatus status() {
                return RetryStatus.IDLE;
            }
        };
    }
}
