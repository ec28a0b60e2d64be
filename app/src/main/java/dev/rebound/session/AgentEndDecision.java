package dev.rebound.session;

/**
 * What the session does after a provider call ended: finish the turn, or continue it with another call once a
 * scheduled retry is due.
 */
public sealed interface AgentEndDecision {

    /** Whether a retry was scheduled ({@code agent_end.willRetry}). */
    boolean willRetry();

    /** The turn is over. */
    record Finish() implements AgentEndDecision {
        @Override
        public boolean willRetry() {
            return false;
        }
    }

    /**
     * Continue the turn after {@link ScheduledRetry#awaitDue()}. The session removes the failed message from the runtime
     * context (keeping it in history, marked retried) before waiting.
     */
    record Retry(ScheduledRetry retry) implements AgentEndDecision {
        @Override
        public boolean willRetry() {
            return true;
        }
    }

    /** A retry the handler has scheduled. */
    interface ScheduledRetry {
        /**
         * Called on the session thread after {@code agent_end}; blocks until the retry is due (true: call again) or was
         * cancelled (false: the turn ends).
         */
        boolean awaitDue() throws InterruptedException;
    }

    /** The shared finish decision. */
    AgentEndDecision FINISH = new Finish();
}
