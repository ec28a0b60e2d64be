package dev.rebound.retry;

import java.util.random.RandomGenerator;

/** The local backoff of §3: {@code min(base · 2^(attempt−1), 8 s)} times a jitter factor in [0.75, 1.00]. */
final class Backoff {
    /** The cap of the local backoff, before jitter. */
    static final long MAX_BACKOFF_MS = 8_000;

    private Backoff() {}

    /** The wait before retry number {@code attempt} (1-based). */
    static long delay(long baseDelayMs, int attempt, RandomGenerator random) {
        long nominal = MAX_BACKOFF_MS;
        if (attempt - 1 < 62 && baseDelayMs <= (MAX_BACKOFF_MS >> Math.min(attempt - 1, 62))) {
            nominal = Math.min(baseDelayMs << (attempt - 1), MAX_BACKOFF_MS);
        }
        double jitter = 0.75 + 0.25 * random.nextDouble();
        return Math.round(nominal * jitter);
    }
}
