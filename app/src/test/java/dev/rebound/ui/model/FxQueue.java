package dev.rebound.ui.model;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The "FX thread" of view-model tests: work handed to it waits in a queue until the test thread runs it, so the
 * view-models stay confined to one thread, as on the real FX thread.
 */
final class FxQueue implements Executor {
    private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();

    @Override
    public void execute(Runnable command) {
        queue.add(command);
    }

    /** Runs queued work on this thread until {@code condition} holds; fails after {@code timeout}. */
    void runUntil(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("condition not met within " + timeout);
            }
            Runnable next = queue.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS);
            if (next != null) {
                next.run();
            }
        }
    }

    /** Runs whatever is queued now. */
    void drain() {
        Runnable next;
        while ((next = queue.poll()) != null) {
            next.run();
        }
    }
}
