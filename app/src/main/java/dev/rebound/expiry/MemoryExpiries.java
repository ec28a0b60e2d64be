package dev.rebound.expiry;

import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Until-times that are never written anywhere: the usage-limit blocks and cooldowns of the built-in simulator's fake
 * keys and model, which a scenario creates on purpose and which must not outlive the process (nor make the next run
 * wait). Active while {@code now < until} by the injected clock. Thread-safe.
 */
public final class MemoryExpiries implements Expiries {
    private final Clock clock;
    private final Map<String, ExpiryStore.Entry> entries = new ConcurrentHashMap<>();

    public MemoryExpiries(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void extend(String key, long untilEpochMs, String reason) {
        ExpiryStore.Entry entry = new ExpiryStore.Entry(key, untilEpochMs, reason);
        entries.merge(key, entry, (old, now) -> old.until() >= now.until() ? old : now);
    }

    @Override
    public Optional<ExpiryStore.Entry> get(String key) {
        ExpiryStore.Entry entry = entries.get(key);
        if (entry == null || entry.activeAt(clock.millis())) {
            return Optional.ofNullable(entry);
        }
        entries.remove(key, entry);
        return Optional.empty();
    }

    /** Forgets every entry. */
    public void clear() {
        entries.clear();
    }
}
