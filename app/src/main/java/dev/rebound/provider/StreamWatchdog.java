package dev.rebound.provider;

import dev.rebound.settings.TimeoutSettings;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces the first-byte and idle timeouts of provider calls on one shared scheduler thread.
 *
 * <p>A {@link Watch} starts in the {@link Phase#FIRST_BYTE} phase: from the start of the request until the response
 * headers arrive ({@code timeouts.firstByteMs}). Then it switches to {@link Phase#IDLE}: no stretch without any received
 * byte may last longer than {@code timeouts.idleMs}, including the one before the first event. A limit {@code <= 0}
 * disables that phase's timeout.
 *
 * <p>Recording activity is one volatile write; nothing is rescheduled per token. One check is scheduled at the current
 * deadline; when it runs and activity happened meanwhile, it is rescheduled to {@code lastActivity + idle}, otherwise the
 * watch expires and runs its timeout action (which cancels the HTTP call).
 */
public final class StreamWatchdog {
    private static final Logger log = LoggerFactory.getLogger(StreamWatchdog.class);

    private final ScheduledExecutorService scheduler;

    /** A watchdog that schedules its checks on {@code scheduler} (see {@link #newScheduler()}). */
    public StreamWatchdog(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * A scheduler suited to a watchdog: one daemon thread, cancelled checks removed at once. The caller owns it and shuts
     * it down when the application ends.
     */
    public static ScheduledExecutorService newScheduler() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "rebound-stream-watchdog");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        return Executors.unconfigurableScheduledExecutorService(executor);
    }

    /**
     * Starts watching one call.
     *
     * @param timeouts the limits to enforce
     * @param onTimeout what to do when a limit is exceeded; runs on the watchdog thread, so it must be quick (cancel
     *     the call)
     * @return the watch; close it when the call is over
     */
    public Watch watch(TimeoutSettings timeouts, Runnable onTimeout) {
        Watch watch = new Watch(timeouts, onTimeout);
        watch.start();
        return watch;
    }

    /** The phase a watch was in when it expired. */
    public enum Phase {
        /** Waiting for the response headers; limited by {@code timeouts.firstByteMs}. */
        FIRST_BYTE,
        /** Receiving the response; no silence longer than {@code timeouts.idleMs}. */
        IDLE
    }

    /** The timeouts of one call. Thread-safe: the calling thread records activity, the watchdog thread checks it. */
    public final class Watch implements AutoCloseable {
        private final TimeoutSettings timeouts;
        private final Runnable onTimeout;
        private volatile long lastActivityNanos;
        private Phase phase = Phase.FIRST_BYTE;
        private Phase expired;
        private boolean closed;
        private ScheduledFuture<?> pending;

        private Watch(TimeoutSettings timeouts, Runnable onTimeout) {
            this.timeouts = timeouts;
            this.onTimeout = onTimeout;
        }

        private synchronized void start() {
            lastActivityNanos = System.nanoTime();
            scheduleCheck(TimeUnit.MILLISECONDS.toNanos(timeouts.firstByteMs()));
        }

        /** Records that data arrived; cheap enough to call for every read. */
        public void activity() {
            lastActivityNanos = System.nanoTime();
        }

        /** The response headers arrived: the first-byte limit is met, the idle limit applies from now on. */
        public synchronized void responseStarted() {
            if (closed || expired != null) {
                return;
            }
            phase = Phase.IDLE;
            lastActivityNanos = System.nanoTime();
            cancelPending();
            scheduleCheck(TimeUnit.MILLISECONDS.toNanos(timeouts.idleMs()));
        }

        /** The phase in which this watch expired, or null while no limit was exceeded. */
        public synchronized Phase expired() {
            return expired;
        }

        /** The limit of a phase in milliseconds, for messages. */
        public long limitMs(Phase of) {
            return of == Phase.FIRST_BYTE ? timeouts.firstByteMs() : timeouts.idleMs();
        }

        /** Stops watching; a check that is due later does nothing. */
        @Override
        public synchronized void close() {
            closed = true;
            cancelPending();
        }

        private void check() {
            synchronized (this) {
                if (closed || expired != null) {
                    return;
                }
                if (phase == Phase.IDLE) {
                    long idleNanos = TimeUnit.MILLISECONDS.toNanos(timeouts.idleMs());
                    long remaining = lastActivityNanos + idleNanos - System.nanoTime();
                    if (remaining > 0) {
                        scheduleCheck(remaining);
                        return;
                    }
                }
                expired = phase;
                pending = null;
            }
            onTimeout.run();
        }

        private void scheduleCheck(long delayNanos) {
            if (phaseLimitMs() <= 0) {
                return;
            }
            try {
                pending = scheduler.schedule(this::check, Math.max(delayNanos, 0), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                log.warn("The stream watchdog is shut down; this call runs without first-byte and idle timeouts");
            }
        }

        private long phaseLimitMs() {
            return phase == Phase.FIRST_BYTE ? timeouts.firstByteMs() : timeouts.idleMs();
        }

        private void cancelPending() {
            if (pending != null) {
                pending.cancel(false);
                pending = null;
            }
        }
    }
}
