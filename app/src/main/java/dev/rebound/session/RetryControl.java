package dev.rebound.session;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The user's controls over retries, and what hosts show of them ({@code get_state}, the retry banner, the fallback
 * chip). Every method may be called from any thread and returns at once: the status is an immutable snapshot read
 * without the decision lock, and cancelling or hurrying a wait never waits for a decision or the disk.
 */
public interface RetryControl {

    /**
     * Cancels a scheduled retry, if any: its {@link AgentEndDecision.ScheduledRetry#awaitDue()} returns
     * {@code Cancelled}. Safe when nothing is scheduled.
     *
     * @param userAbort true when the user stopped the whole turn ({@code abort}), false for {@code abortRetry}
     * @return what there was to cancel, decided in the same step as the cancel
     */
    RetryCancel cancelPending(boolean userAbort);

    /**
     * Ends the current backoff early so the pending retry starts at once. Does nothing when none is pending, or when
     * {@code attempt} is given and is not the pending retry's number (a second click meant for the wait just skipped).
     */
    void retryNow(OptionalInt attempt);

    /** Whether a retry chain is running, and its attempt: a snapshot. */
    RetryStatus status();

    /** The active model fallback, if any: a snapshot. */
    default Optional<FallbackStatus> fallback() {
        return Optional.empty();
    }

    /** No retries to control. */
    RetryControl NONE = new RetryControl() {
        @Override
        public RetryCancel cancelPending(boolean userAbort) {
            return RetryCancel.NONE;
        }

        @Override
        public void retryNow(OptionalInt attempt) {}

        @Override
        public RetryStatus status() {
            return RetryStatus.IDLE;
        }
    };
}
