package dev.rebound.state;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests set and move by hand; safe to read from many threads. */
final class TestClock extends Clock {
    private final AtomicLong millis;

    TestClock(Instant start) {
        this.millis = new AtomicLong(start.toEpochMilli());
    }

    void set(long epochMs) {
        millis.set(epochMs);
    }

    void advance(Duration by) {
        millis.addAndGet(by.toMillis());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
