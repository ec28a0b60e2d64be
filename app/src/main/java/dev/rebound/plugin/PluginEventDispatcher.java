package dev.rebound.plugin;

import dev.rebound.api.MessageUpdate;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers session events to plugin listeners so that no plugin can hurt a chat.
 *
 * <p>Each registered plugin gets a bounded queue and its own daemon delivery thread named
 * {@code rebound-plugin-<id>}. {@link #publish(SessionEvent)} never blocks and never throws: when a plugin's queue is
 * full its oldest queued streaming delta ({@code message_update}) is dropped and counted (or the new delta, when none
 * is queued); lifecycle events (turn,
 * message, retry, fallback, credential, notice) go only when no delta is left to drop, which the user is told once. Each plugin receives the events in publication order. Every
 * call into a plugin is guarded against {@link Exception}, {@link LinkageError} and {@link StackOverflowError}; a
 * failure is logged with the plugin id, counted and kept as the plugin's last failure. After a number of consecutive
 * failures, or when at least {@link #RATE_MIN_FAILURES} of its last {@link #RATE_WINDOW} events failed and they are at
 * least half of them, the plugin is {@link State#DISABLED}: it receives nothing more and the user is told once through
 * the callback given at construction. Any other error escaping a plugin marks it {@link State#FAILED}, as does its
 * delivery ending for any other reason than {@link #close()}. An interrupt flag a plugin leaves set is cleared after
 * each call. A plugin whose current call has run longer than {@link #STUCK_AFTER} is reported {@link State#STUCK}
 * until the call returns; the first time that is seen (by {@link #publish} or {@link #statuses}) the user is told once.
 *
 * <p>{@link #close()} stops accepting events, lets each plugin work through what is already queued for a short while,
 * then closes every listener that is {@link AutoCloseable}, once, on its own delivery thread.
 *
 * <p>Thread-safe. Events still queued when a plugin is disabled are discarded without being counted as dropped.
 */
public final class PluginEventDispatcher implements AutoCloseable {

    /** The default capacity of each plugin's queue. */
    public static final int DEFAULT_CAPACITY = 1024;
    /** The default number of consecutive failures after which a plugin is disabled. */
    public static final int DEFAULT_MAX_CONSECUTIVE_FAILURES = 10;

    private static final Logger log = LoggerFactory.getLogger(PluginEventDispatcher.class);
    /** How long queued events may still be delivered after {@link #close()} before delivery threads are interrupted. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(1);
    /** How long interrupted delivery threads get to end (and close their listeners) after the drain. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);
    /** How often an idle delivery thread looks whether the dispatcher is closing. */
    private static final long IDLE_POLL_MS = 200;
    /** How many of a plugin's latest events its failure rate is measured over. */
    static final int RATE_WINDOW = 100;
    /**
     * A plugin is disabled when at least this many of its last {@link #RATE_WINDOW} events failed and they are at
     * least half of them, even when no run of failures is long enough.
     */
    static final int RATE_MIN_FAILURES = 20;
    /** A call into a plugin that has run this long makes the plugin {@link State#STUCK}. */
    public static final Duration STUCK_AFTER = Duration.ofSeconds(3);

    /** The delivery state of a plugin. */
    public enum State {
        /** Events are delivered. */
        ACTIVE,
        /** Disabled after repeated failures; receives no more events. */
        DISABLED,
        /** Stopped by an error that could not be contained. */
        FAILED,
        /** Its current call has not returned for longer than {@link #STUCK_AFTER}; its queue fills and drops. */
        STUCK
    }

    /**
     * What the host knows about one plugin's delivery.
     *
     * @param id the plugin id
     * @param version the plugin version
     * @param state its delivery state
     * @param failure the last failure ({@code ExceptionClass: message}), or null if it never failed
     * @param delivered events the plugin handled without failing
     * @param dropped events dropped because its queue was full
     * @param failures events whose delivery failed
     */
    public record PluginStatus(
            String id, String version, State state, String failure, long delivered, long dropped, long failures) {}

    private final int defaultCapacity;
    private final int maxConsecutiveFailures;
    private final Consumer<String> userNotifier;
    private final LongSupplier nanoTime;
    private final List<Slot> slots = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /**
     * A dispatcher with the default capacity and failure limit.
     *
     * @param userNotifier told once, with a sentence for the user, when a plugin is disabled or fails
     */
    public PluginEventDispatcher(Consumer<String> userNotifier) {
        this(DEFAULT_CAPACITY, DEFAULT_MAX_CONSECUTIVE_FAILURES, userNotifier);
    }

    /**
     * A dispatcher.
     *
     * @param defaultCapacity the queue capacity of each plugin registered without one
     * @param maxConsecutiveFailures consecutive failures after which a plugin is disabled
     * @param userNotifier told once, with a sentence for the user, when a plugin is disabled or fails
     */
    public PluginEventDispatcher(int defaultCapacity, int maxConsecutiveFailures, Consumer<String> userNotifier) {
        this(defaultCapacity, maxConsecutiveFailures, userNotifier, System::nanoTime);
    }

    /**
     * A dispatcher with its own time source for the {@link State#STUCK} check.
     *
     * @param defaultCapacity the queue capacity of each plugin registered without one
     * @param maxConsecutiveFailures consecutive failures after which a plugin is disabled
     * @param userNotifier told once, with a sentence for the user, when a plugin is disabled or fails
     * @param nanoTime a monotonic clock in nanoseconds, like {@link System#nanoTime()}
     */
    public PluginEventDispatcher(
            int defaultCapacity, int maxConsecutiveFailures, Consumer<String> userNotifier, LongSupplier nanoTime) {
        if (defaultCapacity < 1 || maxConsecutiveFailures < 1) {
            throw new IllegalArgumentException("capacity and failure limit must be positive");
        }
        this.defaultCapacity = defaultCapacity;
        this.maxConsecutiveFailures = maxConsecutiveFailures;
        this.userNotifier = Objects.requireNonNull(userNotifier, "userNotifier");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /**
     * Registers a plugin's listener with the default queue capacity and starts its delivery thread.
     *
     * @param id the plugin id, unique among registered plugins
     * @param version the plugin version
     * @param listener its listener
     * @throws IllegalArgumentException if the id is already registered
     * @throws IllegalStateException if the dispatcher is closed
     */
    public void register(String id, String version, SessionEventListener listener) {
        register(id, version, listener, defaultCapacity);
    }

    /**
     * Registers a plugin's listener with its own queue capacity and starts its delivery thread.
     *
     * @param id the plugin id, unique among registered plugins
     * @param version the plugin version
     * @param listener its listener
     * @param capacity how many events may wait for it before streaming deltas (and, when none is left, the oldest) go
     * @throws IllegalArgumentException if the id is already registered or the capacity is not positive
     * @throws IllegalStateException if the dispatcher is closed
     */
    public synchronized void register(String id, String version, SessionEventListener listener, int capacity) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(listener, "listener");
        if (closed) {
            throw new IllegalStateException("the plugin dispatcher is closed");
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        if (slots.stream().anyMatch(s -> s.id.equals(id))) {
            throw new IllegalArgumentException("plugin already registered: " + id);
        }
        Slot slot = new Slot(id, version, listener, capacity);
        slots.add(slot);
        slot.thread.start();
    }

    /**
     * Queues an event for every active plugin. Never blocks, never throws; a null event is ignored.
     *
     * @param event the event
     */
    public void publish(SessionEvent event) {
        if (event == null || closed) {
            return;
        }
        for (Slot slot : slots) {
            slot.offer(event);
        }
    }

    /** Whether any plugin is registered and still receives events. */
    public boolean hasListeners() {
        for (Slot slot : slots) {
            if (slot.state == State.ACTIVE) {
                return true;
            }
        }
        return false;
    }

    /** The status of every registered plugin, in registration order. */
    public List<PluginStatus> statuses() {
        List<PluginStatus> result = new ArrayList<>(slots.size());
        for (Slot slot : slots) {
            result.add(slot.status());
        }
        return List.copyOf(result);
    }

    /**
     * How many events wait in a plugin's queue (not counting one being delivered).
     *
     * @param id the plugin id
     * @return the queue length, or 0 for an unknown plugin
     */
    public int queued(String id) {
        for (Slot slot : slots) {
            if (slot.id.equals(id)) {
                return slot.queue.size();
            }
        }
        return 0;
    }

    /**
     * Stops delivery: no event is accepted any more; each plugin gets up to a second to work through its queue, then
     * its listener is closed if it is {@link AutoCloseable}. Threads still busy then are interrupted and given another
     * second. A plugin that ignores the interrupt is left behind on its daemon thread; events still queued are
     * discarded.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            joinAll(DRAIN_TIMEOUT);
            for (Slot slot : slots) {
                slot.thread.interrupt();
            }
            joinAll(CLOSE_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Slot slot : slots) {
            if (slot.thread.isAlive()) {
                log.warn(
                        "Plugin {} did not stop within {} ms; leaving its daemon thread behind",
                        slot.id,
                        DRAIN_TIMEOUT.plus(CLOSE_TIMEOUT).toMillis());
            }
            slot.queue.clear();
        }
    }

    private void joinAll(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Slot slot : slots) {
            long remaining = deadline - System.nanoTime();
            if (remaining > 0) {
                slot.thread.join(Duration.ofNanos(remaining));
            }
        }
    }

    /** One plugin: its queue, thread and counters. */
    private final class Slot implements Runnable {
        final String id;
        final String version;
        final SessionEventListener listener;
        final ArrayBlockingQueue<SessionEvent> queue;
        final Thread thread;
        final AtomicLong delivered = new AtomicLong();
        final AtomicLong dropped = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicBoolean userTold = new AtomicBoolean();
        final AtomicBoolean stuckTold = new AtomicBoolean();
        final AtomicBoolean lifecycleLossTold = new AtomicBoolean();
        volatile State state = State.ACTIVE;
        volatile String lastFailure;
        /** When the current call into the plugin began, or 0 while none runs. */
        volatile long callStartedNanos;

        int consecutiveFailures; // delivery thread only
        /** Whether each of the last {@link #RATE_WINDOW} calls failed, as a ring; delivery thread only. */
        final boolean[] recent = new boolean[RATE_WINDOW];

        long calls; // delivery thread only
        int recentFailures; // delivery thread only

        Slot(String id, String version, SessionEventListener listener, int capacity) {
            this.id = id;
            this.version = version;
            this.listener = listener;
            this.queue = new ArrayBlockingQueue<>(capacity);
            this.thread =
                    Thread.ofPlatform().daemon().name("rebound-plugin-" + id).unstarted(this);
        }

        void offer(SessionEvent event) {
            if (state != State.ACTIVE) {
                return;
            }
            if (callStartedNanos != 0) {
                status(); // tells the user when the plugin has just become stuck
            }
            // Producers of one plugin (several chats publish at once) make room one at a time; the delivery thread
            // only ever takes, so a second offer after a failed one can only find more room, never less.
            synchronized (this) {
                while (!queue.offer(event)) {
                    if (dropOldestDelta()) {
                        continue;
                    }
                    if (event instanceof MessageUpdate) {
                        dropped.incrementAndGet(); // nothing but lifecycle events queued: the new delta goes
                        return;
                    }
                    if (queue.offer(event)) {
                        return; // the delivery thread took one meanwhile
                    }
                    dropOldestLifecycleEvent();
                }
            }
        }

        /** Drops the oldest streaming delta queued, if there is one. */
        private boolean dropOldestDelta() {
            for (Iterator<SessionEvent> it = queue.iterator(); it.hasNext(); ) {
                if (it.next() instanceof MessageUpdate) {
                    it.remove();
                    dropped.incrementAndGet();
                    return true;
                }
            }
            return false;
        }

        /**
         * With nothing but lifecycle events queued (the plugin is stuck behind them), the oldest goes, so that the
         * newest can be queued; the user is told once.
         */
        private void dropOldestLifecycleEvent() {
            SessionEvent lost = queue.poll();
            if (lost != null) {
                dropped.incrementAndGet();
                if (lifecycleLossTold.compareAndSet(false, true)) {
                    log.warn(
                            "Plugin {} has a full queue ({} events) with no streaming delta left to drop; it lost "
                                    + "a {} event",
                            id,
                            queue.size() + queue.remainingCapacity(),
                            lost.type());
                    notifyUser("Plugin " + id + " is too slow to keep up and lost retry or turn events; what it "
                            + "records may be incomplete.");
                }
            }
        }

        PluginStatus status() {
            State reported = state;
            long started = callStartedNanos;
            String failure = lastFailure;
            if (reported == State.ACTIVE && started != 0 && nanoTime.getAsLong() - started > STUCK_AFTER.toNanos()) {
                reported = State.STUCK;
                long seconds = TimeUnit.NANOSECONDS.toSeconds(nanoTime.getAsLong() - started);
                failure = "a call has not returned for " + seconds + " s; events wait in its queue and streaming "
                        + "deltas are dropped";
                if (stuckTold.compareAndSet(false, true)) {
                    log.warn("Plugin {} is stuck: {}", id, failure);
                    notifyUser("Plugin " + id + " is stuck: " + failure + ".");
                }
            }
            return new PluginStatus(id, version, reported, failure, delivered.get(), dropped.get(), failures.get());
        }

        @Override
        public void run() {
            try {
                while (state == State.ACTIVE && !(closed && queue.isEmpty())) {
                    SessionEvent event;
                    try {
                        event = queue.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        if (closed) {
                            break;
                        }
                        continue; // an interrupt a plugin left behind, not close()'s wake-up
                    }
                    if (event != null) {
                        deliver(event);
                    }
                    if (closed) {
                        if (Thread.currentThread().isInterrupted()) {
                            break;
                        }
                    } else {
                        // A listener that restores the flag ("catch (InterruptedException e) { interrupt(); }")
                        // must not end its own delivery: only close() may.
                        Thread.interrupted();
                    }
                }
                if (state == State.ACTIVE && !closed) {
                    stopForGood("its delivery ended unexpectedly", null);
                }
                closeListener();
            } catch (Throwable t) {
                // Not contained by deliver(): an error such as OutOfMemoryError. The plugin is stopped for good.
                stopForGood(describe(t), t);
                if (t instanceof VirtualMachineError vmError) {
                    throw vmError;
                }
            }
        }

        /** Marks the plugin {@link State#FAILED}: it receives nothing more, and the user is told once. */
        private void stopForGood(String reason, Throwable cause) {
            lastFailure = reason;
            state = State.FAILED;
            queue.clear();
            log.error("Plugin {} failed and was stopped: {}", id, reason, cause);
            tellUser("Plugin " + id + " failed and was stopped: " + reason);
        }

        private void deliver(SessionEvent event) {
            callStartedNanos = nanoTime.getAsLong() | 1; // never 0 while a call runs
            try {
                listener.dispatch(event);
                delivered.incrementAndGet();
                consecutiveFailures = 0;
                remember(false);
            } catch (Exception | LinkageError | StackOverflowError t) {
                if (closed && Thread.currentThread().isInterrupted()) {
                    return; // interrupted by close(): not the plugin's failure
                }
                onFailure(event, t);
            } finally {
                callStartedNanos = 0;
            }
        }

        /** Closes an {@link AutoCloseable} listener once, after its last event; a failure is logged, not counted. */
        private void closeListener() {
            if (!(listener instanceof AutoCloseable closeable)) {
                return;
            }
            Thread.interrupted(); // the wake-up of close() is not meant for the plugin's own clean-up
            try {
                closeable.close();
            } catch (Exception | LinkageError | StackOverflowError t) {
                log.warn("Plugin {} failed while closing", id, t);
            }
        }

        /** Records one call's outcome in the window of the last {@link #RATE_WINDOW} calls. */
        private void remember(boolean failed) {
            int index = (int) (calls % RATE_WINDOW);
            if (calls >= RATE_WINDOW && recent[index]) {
                recentFailures--;
            }
            recent[index] = failed;
            if (failed) {
                recentFailures++;
            }
            calls++;
        }

        private void onFailure(SessionEvent event, Throwable t) {
            long count = failures.incrementAndGet();
            consecutiveFailures++;
            remember(true);
            lastFailure = describe(t);
            if (count == 1) {
                log.warn("Plugin {} failed on {}", id, event.type(), t);
            } else {
                log.warn("Plugin {} failed on {}: {}", id, event.type(), lastFailure);
            }
            if (consecutiveFailures >= maxConsecutiveFailures) {
                state = State.DISABLED;
                queue.clear();
                log.warn("Plugin {} disabled after {} consecutive failures", id, consecutiveFailures);
                tellUser("Plugin " + id + " was disabled after " + consecutiveFailures + " failures: " + lastFailure);
            } else if (recentFailures >= RATE_MIN_FAILURES && recentFailures * 2L >= Math.min(calls, RATE_WINDOW)) {
                long window = Math.min(calls, RATE_WINDOW);
                state = State.DISABLED;
                queue.clear();
                log.warn("Plugin {} disabled after {} failures in its last {} events", id, recentFailures, window);
                tellUser("Plugin " + id + " was disabled after " + recentFailures + " failures in its last " + window
                        + " events: " + lastFailure);
            }
        }

        private void tellUser(String message) {
            if (userTold.compareAndSet(false, true)) {
                notifyUser(message);
            }
        }

        private void notifyUser(String message) {
            try {
                userNotifier.accept(message);
            } catch (RuntimeException e) {
                log.warn("Could not tell the user about plugin {}", id, e);
            }
        }
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return message == null ? t.getClass().getName() : t.getClass().getName() + ": " + message;
    }
}
