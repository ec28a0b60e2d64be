package dev.rebound.plugin;

import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers session events to plugin listeners so that no plugin can hurt a chat.
 *
 * <p>Each registered plugin gets a bounded queue and its own daemon delivery thread named
 * {@code rebound-plugin-<id>}. {@link #publish(SessionEvent)} never blocks and never throws: when a plugin's queue is
 * full its oldest queued event is dropped and counted. Each plugin receives the events in publication order. Every
 * call into a plugin is guarded against {@link Exception}, {@link LinkageError} and {@link StackOverflowError}; a
 * failure is logged with the plugin id, counted and kept as the plugin's last failure. After a number of consecutive
 * failures the plugin is {@link State#DISABLED}: it receives nothing more and the user is told once through the
 * callback given at construction. Any other error escaping a plugin marks it {@link State#FAILED}.
 *
 * <p>Thread-safe. Events still queued when a plugin is disabled are discarded without being counted as dropped.
 */
public final class PluginEventDispatcher implements AutoCloseable {

    /** The default capacity of each plugin's queue. */
    public static final int DEFAULT_CAPACITY = 1024;
    /** The default number of consecutive failures after which a plugin is disabled. */
    public static final int DEFAULT_MAX_CONSECUTIVE_FAILURES = 10;

    private static final Logger log = LoggerFactory.getLogger(PluginEventDispatcher.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

    /** The delivery state of a plugin. */
    public enum State {
        /** Events are delivered. */
        ACTIVE,
        /** Disabled after repeated failures; receives no more events. */
        DISABLED,
        /** Stopped by an error that could not be contained. */
        FAILED
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
    public record PluginStatus(String id, String version, State state, String failure, long delivered, long dropped,
                               long failures) {
    }

    private final int defaultCapacity;
    private final int maxConsecutiveFailures;
    private final Consumer<String> userNotifier;
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
        if (defaultCapacity < 1 || maxConsecutiveFailures < 1) {
            throw new IllegalArgumentException("capacity and failure limit must be positive");
        }
        this.defaultCapacity = defaultCapacity;
        this.maxConsecutiveFailures = maxConsecutiveFailures;
        this.userNotifier = Objects.requireNonNull(userNotifier, "userNotifier");
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
     * @param capacity how many events may wait for it before the oldest are dropped
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
     * Stops every delivery thread: interrupts them and waits a bounded time for them to end. A plugin that ignores the
     * interrupt is left behind on its daemon thread. Events still queued are discarded.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (Slot slot : slots) {
            slot.thread.interrupt();
        }
        long deadline = System.nanoTime() + CLOSE_TIMEOUT.toNanos();
        for (Slot slot : slots) {
            long remaining = deadline - System.nanoTime();
            try {
                if (remaining > 0) {
                    slot.thread.join(Duration.ofNanos(remaining));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (slot.thread.isAlive()) {
                log.warn("Plugin {} did not stop within {} ms; leaving its daemon thread behind", slot.id,
                        CLOSE_TIMEOUT.toMillis());
            }
            slot.queue.clear();
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
        volatile State state = State.ACTIVE;
        volatile String lastFailure;
        int consecutiveFailures; // delivery thread only

        Slot(String id, String version, SessionEventListener listener, int capacity) {
            this.id = id;
            this.version = version;
            this.listener = listener;
            this.queue = new ArrayBlockingQueue<>(capacity);
            this.thread = Thread.ofPlatform().daemon().name("rebound-plugin-" + id).unstarted(this);
        }

        void offer(SessionEvent event) {
            if (state != State.ACTIVE) {
                return;
            }
            while (!queue.offer(event)) {
                if (queue.poll() != null) {
                    dropped.incrementAndGet();
                }
            }
        }

        PluginStatus status() {
            return new PluginStatus(id, version, state, lastFailure, delivered.get(), dropped.get(), failures.get());
        }

        @Override
        public void run() {
            try {
                while (!closed && state == State.ACTIVE) {
                    SessionEvent event;
                    try {
                        event = queue.poll(1, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (event != null && !closed) {
                        deliver(event);
                    }
                }
            } catch (Throwable t) {
                // Not contained by deliver(): an error such as OutOfMemoryError. The plugin is stopped for good.
                lastFailure = describe(t);
                state = State.FAILED;
                queue.clear();
                log.error("Plugin {} failed and was stopped", id, t);
                tellUser("Plugin " + id + " failed and was stopped: " + lastFailure);
                if (t instanceof VirtualMachineError vmError) {
                    throw vmError;
                }
            }
        }

        private void deliver(SessionEvent event) {
            try {
                listener.dispatch(event);
                delivered.incrementAndGet();
                consecutiveFailures = 0;
            } catch (Exception | LinkageError | StackOverflowError t) {
                if (closed) {
                    return; // interrupted by close(): not the plugin's failure
                }
                onFailure(event, t);
            }
        }

        private void onFailure(SessionEvent event, Throwable t) {
            long count = failures.incrementAndGet();
            consecutiveFailures++;
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
            }
        }

        private void tellUser(String message) {
            if (!userTold.compareAndSet(false, true)) {
                return;
            }
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
