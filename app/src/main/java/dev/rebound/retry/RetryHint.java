package dev.rebound.retry;

/**
 * A wait the provider asked for (§4 of the retry policy).
 *
 * @param delayMs how long to wait from now, in milliseconds (never negative)
 * @param source where it came from, e.g. {@code retry-after-ms}, {@code retry-after}, {@code body:retry in},
 *     {@code x-ratelimit-reset-requests}
 */
public record RetryHint(long delayMs, String source) {
    public RetryHint {
        if (delayMs < 0) {
            throw new IllegalArgumentException("a hint is never negative");
        }
    }
}
