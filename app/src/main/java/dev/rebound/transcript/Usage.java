package dev.rebound.transcript;

/**
 * Token counts a provider reported for one assistant message. Zero where the provider said nothing.
 */
public record Usage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens) {
    /** No usage reported. */
    public static final Usage NONE = new Usage(0, 0, 0, 0);

    /** Input plus output tokens. */
    public long totalTokens() {
        return inputTokens + outputTokens;
    }
}
