package dev.rebound.simulator;

import java.util.concurrent.TimeUnit;

/** Monotonic time and sleeping, injected so that pacing is tested exactly without real sleeps. */
public interface Ticker {
    /** Monotonic nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /** Sleeps about that long. */
    void sleepNanos(long nanos) throws InterruptedException;

    /** The real clock. */
    static Ticker system() {
        return new Ticker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void sleepNanos(long nanos) throws InterruptedException {
                TimeUnit.NANOSECONDS.sleep(nanos);
            }
        };
    }
}
