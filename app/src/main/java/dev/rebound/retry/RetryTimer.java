package dev.rebound.retry;

/**
 * Starts the cancellable waits of retry backoff. Injected, so tests control time exactly instead of sleeping.
 */
@FunctionalInterface
public interface RetryTimer {

    /** Starts a wait of {@code delayMs} milliseconds, counted from now. */
    Wait start(long delayMs);

    /** How a wait ended. */
    enum Wake {
        ELAPSED,
        RETRY_NOW,
        CANCELLED
    }

    /** One pending wait. {@link #cancel()} and {@link #fireNow()} may come from any thread; the first wake wins. */
    interface Wait {
        /** Blocks until the delay elapsed, {@link #fireNow()} or {@link #cancel()}. */
        Wake await() throws InterruptedException;

        void cancel();

        void fireNow();
    }

    /** Real time, for the app. */
    static RetryTimer realTime() {
        return RealTimeRetryTimer::new;
    }
}
