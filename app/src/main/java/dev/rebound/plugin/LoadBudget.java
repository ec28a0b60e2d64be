package dev.rebound.plugin;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How much longer loading may take, so that plugins cannot hold the app's start for long: each plugin gets a total
 * time across all its steps (unpack, read, load, start, create listeners), and all plugins together get an overall
 * time counted from the start of loading. A plugin reached after either is used up is not loaded.
 */
final class LoadBudget {
    /** Less than this left is nothing left: no step can be given a useful limit. */
    private static final long MIN_STEP_NANOS = 1_000_000;

    private final Duration perPlugin;
    private final Duration total;
    private final LongSupplier nanoTime;
    private final long startedNanos;
    private final Map<Object, Long> spentNanos = new HashMap<>();

    /**
     * @param perPlugin the time one plugin's steps may take in all
     * @param total the time all plugins' steps may take in all
     * @param nanoTime a monotonic clock in nanoseconds, like {@link System#nanoTime()}
     */
    LoadBudget(Duration perPlugin, Duration total, LongSupplier nanoTime) {
        this.perPlugin = perPlugin;
        this.total = total;
        this.nanoTime = nanoTime;
        this.startedNanos = nanoTime.getAsLong();
    }

    /** What is left for the plugin's next step: its own time or everyone's, whichever ends first; never negative. */
    Duration remaining(Object plugin) {
        long own = perPlugin.toNanos() - spentNanos.getOrDefault(plugin, 0L);
        long everyone = total.toNanos() - (nanoTime.getAsLong() - startedNanos);
        return Duration.ofNanos(Math.max(0, Math.min(own, everyone)));
    }

    /** Why the plugin may take no further step ("loading took too long: ..."), or empty while time is left. */
    Optional<String> exhausted(Object plugin) {
        if (total.toNanos() - (nanoTime.getAsLong() - startedNanos) < MIN_STEP_NANOS) {
            return Optional.of("loading took too long: all plugins together may take " + total.toMillis()
                    + " ms when the app starts, and that time was used up before this one was done");
        }
        if (perPlugin.toNanos() - spentNanos.getOrDefault(plugin, 0L) < MIN_STEP_NANOS) {
            return Optional.of(
                    "loading took too long: a plugin's steps may take " + perPlugin.toMillis() + " ms in all");
        }
        return Optional.empty();
    }

    /** Runs a step of the plugin and charges the time it took to it. */
    <T> T charge(Object plugin, Supplier<T> step) {
        long before = nanoTime.getAsLong();
        try {
            return step.get();
        } finally {
            spentNanos.merge(plugin, nanoTime.getAsLong() - before, Long::sum);
        }
    }
}
