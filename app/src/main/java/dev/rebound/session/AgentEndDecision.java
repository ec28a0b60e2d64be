package dev.rebound.session;

import dev.rebound.event.SessionEvent;
import java.util.List;

/**
 * What the session does after a provider call ended: finish the turn, or continue it with another call once a
 * scheduled retry is due. The handler never emits events itself; it returns them and the session emits them in the
 * right place, so that a turn is always marked finished before its last event goes out.
 */
public sealed interface AgentEndDecision {

    /** Whether a retry was scheduled ({@code agent_end.willRetry}). */
    boolean willRetry();

    /**
     * Whether the failed provider's server no longer knows what it was told (a stale replay): the session forgets the
     * ids it kept for that provider, so the next call, retry or not, sends the whole conversation.
     */
    boolean resetServerState();

    /** This decision, also resetting the server's state. */
    AgentEndDecision withServerStateReset();

    /**
     * The turn is over. The session marks it finished, emits {@code events} (e.g. {@code auto_retry_end}), then the
     * final {@code agent_end{willRetry:false}}.
     */
    record Finish(List<SessionEvent> events, boolean resetServerState) implements AgentEndDecision {
        public Finish {
            events = List.copyOf(events);
        }

        /** A finish that keeps the server's state. */
        public Finish(List<SessionEvent> events) {
            this(events, false);
        }

        @Override
        public boolean willRetry() {
            return false;
        }

        @Override
        public AgentEndDecision withServerStateReset() {
            return new Finish(events, true);
        }
    }

    /**
     * Continue the turn. The session removes the failed message from the runtime context (keeping it in history,
     * marked retried), emits {@code agent_end{willRetry:true}}, then
     * {@code events} (e.g. {@code auto_retry_start}), then waits on {@link ScheduledRetry#awaitDue()}.
     */
    record Retry(List<SessionEvent> events, ScheduledRetry retry, boolean resetServerState)
            implements AgentEndDecision {
        public Retry {
            events = List.copyOf(events);
        }

        /** A retry that keeps the server's state. */
        public Retry(List<SessionEvent> events, ScheduledRetry retry) {
            this(events, retry, false);
        }

        @Override
        public boolean willRetry() {
            return true;
        }

        @Override
        public AgentEndDecision withServerStateReset() {
            return new Retry(events, retry, true);
        }
    }

    /** A retry the handler has scheduled. */
    interface ScheduledRetry {
        /** Called on the session thread; blocks until the retry is due or was cancelled. */
        Resume awaitDue() throws InterruptedException;
    }

    /** How a scheduled retry's wait ended. */
    sealed interface Resume {
        /** Call the provider again. */
        record Due() implements Resume {}

        /**
         * The retry was cancelled; the turn ends. The session marks it finished, then emits {@code events} (e.g.
         * {@code auto_retry_end{success:false}}).
         */
        record Cancelled(List<SessionEvent> events) implements Resume {
            public Cancelled {
                events = List.copyOf(events);
            }
        }
    }

    /** Finish with no events. */
    AgentEndDecision FINISH = new Finish(List.of());
}
