package dev.rebound.retry;

import dev.rebound.testing.MutableClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A retry timer under the test's control. Every requested delay is recorded. In auto mode a wait elapses as soon as it
 * is awaited, moving the clock forward by its delay; in hold mode it blocks until the test elapses, cancels or fires
 * it — no real sleeping either way.
 */
final class ManualRetryTimer implements RetryTimer {
    private final MutableClock clock;
    private volatile boolean hold;
    private final List<Long> delays = new ArrayList<>();
    private final LinkedBlockingQueue<ManualWait> waiting = new LinkedBlockingQueue<>();

    ManualRetryTimer(MutableClock clock) {
        this.clock = clock;
    }

    /** Waits block until the test acts on them. */
    ManualRetryTimer hold() {
        this.hold = true;
        return this;
    }

    synchronized List<Long> delays() {
        return List.copyOf(delays);
    }

    /** The next wait the session blocks on, once it does. */
    ManualWait nextWaiting() throws InterruptedException {
        ManualWait w = waiting.poll(5, TimeUnit.SECONDS);
        if (w == null) {
            throw new AssertionError("the session never waited for a retry");
        }
        return w;
    }

    @Override
    public synchronized Wait start(long delayMs) {
        delays.add(delayMs);
        return new ManualWait(delayMs);
    }

    /** One wait. */
    final class ManualWait implements Wait {
        final long delayMs;
        private final CompletableFuture<Wake> wake = new CompletableFuture<>();

        ManualWait(long delayMs) {
            this.delayMs = delayMs;
        }

        @Override
        public Wake await() throws InterruptedException {
            if (!hold && !wake.isDone()) {
                clock.advance(delayMs);
                wake.complete(Wake.ELAPSED);
            }
            waiting.add(this);
            try {
                return wake.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new AssertionError("a held retry wait was never released", e);
            }
        }

        /** Lets the delay pass. */
        void elapse() {
            clock.advance(delayMs);
            wake.complete(Wake.ELAPSED);
        }

        @Override
        public void cancel() {
            wake.complete(Wake.CANCELLED);
        }

        @Override
        public void fireNow() {
            wake.complete(Wake.RETRY_NOW);
        }
    }
}
