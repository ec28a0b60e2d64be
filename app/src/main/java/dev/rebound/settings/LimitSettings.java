package dev.rebound.settings;

/**
 * The {@code limits} group: how much one provider reply may hold before Rebound stops reading it. A server sending more
 * is misbehaving (a runaway stream, a compression bomb); the reply ends with a clear error that is not retried, and
 * memory stays bounded.
 *
 * @param maxReplyChars the most characters of text, thinking and tool arguments one reply may have
 * @param maxEventBytes the longest line of a stream (one server-sent event's data line), in bytes
 * @param maxResponseBytes the most bytes one response body may have, after decompression
 */
public record LimitSettings(long maxReplyChars, long maxEventBytes, long maxResponseBytes) {
    /** 2 million characters (10 times the longest output any current model allows), 8 MiB lines, 256 MiB bodies. */
    public static final LimitSettings DEFAULTS = new LimitSettings(2_000_000, 8L << 20, 256L << 20);
}
