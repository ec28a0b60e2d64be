package dev.rebound.retry;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A wait in real time: the waiter blocks on a future with a timeout, so {@link #cancel()} or {@link #fireNow()} from
 * another thread wakes it at once, with no timer thread involved.
 */
final class RealTimeRetryTimer implements RetryTimer.Wait {
    private final CompletableFuture<RetryTimer.Wake> wake = new CompletableFuture<>();
    private final long deadlineNanos;

    RealTimeRetryTimer(long delayMs) {
        this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
    }

    @Override
    public RetryTimer.Wake await() throws InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            return wake.getNow(RetryTimer.Wake.ELAPSED);
        }
        try {
            return wake.get(left, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return wake.getNow(RetryTimer.Wake.ELAPSED);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a retry wait never completes exceptionally", e);
        }
    }

    @Override
    public void cancel() {
        wake.complete(RetryTimer.Wake.CANCELLED);
    }

    @Override
    public void fireNow() {
        wake.complete(RetryTimer.Wake.RETRY_NOW);
    }
}
