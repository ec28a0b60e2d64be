package dev.rebound.ui.model;

import dev.rebound.transcript.Usage;

/**
 * The tokens of one reply as its footer shows them, quietly: {@code 1,234 tokens in (1,000 cached) · 567 out}. Empty
 * when the provider reported nothing (many local servers do not).
 */
public final class UsageText {

    private UsageText() {}

    /** The footer's words, or an empty string. */
    public static String of(Usage usage) {
        if (usage == null || (usage.inputTokens() == 0 && usage.outputTokens() == 0)) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        text.append("%,d".formatted(usage.inputTokens())).append(" tokens in");
        long cached = usage.cacheReadTokens();
        if (cached > 0) {
            text.append(" (").append("%,d".formatted(cached)).append(" cached)");
        }
        text.append(" · ").append("%,d".formatted(usage.outputTokens())).append(" out");
        return text.toString();
    }
}
