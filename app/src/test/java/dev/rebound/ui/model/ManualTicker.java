package dev.rebound.ui.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A {@link Ticker} the test advances by hand. */
final class ManualTicker implements Ticker {
    private final List<Runnable> running = new ArrayList<>();

    @Override
    public AutoCloseable every(Duration period, Runnable action) {
        running.add(action);
        return () -> running.remove(action);
    }

    void tick() {
        List.copyOf(running).forEach(Runnable::run);
    }

    int active() {
        return running.size();
    }
}
