package dev.rebound.settings;

/**
 * The {@code timeouts} group: how long a provider call may take to connect, to send its first byte, and to stay silent
 * between two stream events (a stall).
 */
public record TimeoutSettings(long connectMs, long firstByteMs, long idleMs) {
    public static final TimeoutSettings DEFAULTS = new TimeoutSettings(10_000, 60_000, 120_000);
}
