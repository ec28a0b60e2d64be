package dev.rebound.retry;

import java.math.BigInteger;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises a request that alone is larger than a per-minute token limit ("Request too large for gpt-4o … on tokens
 * per min (TPM): Limit 30000, Requested 49447"): no wait can ever let it through, so it is terminal, with advice. When
 * the request fits the limit ({@code Limit 10000, Used 9990, Requested 500}) the limit is only busy: a rate limit.
 */
final class RequestSizeRules {
    static final String RULE = "request-exceeds-rate-limit";

    /** "Limit N, [Used U,] Requested M", with or without colons, thousands separators or a "~" before M. */
    private static final Pattern LIMIT_REQUESTED = Pattern.compile(
            "\\blimit:?\\s*([\\d,]+)\\s*[,;]?\\s*(?:used:?\\s*[\\d,]+\\s*[,;]?\\s*)?requested:?\\s*~?\\s*([\\d,]+)",
            Pattern.CASE_INSENSITIVE);
    /** The budget is a per-minute one, or the provider itself calls the request too large. */
    private static final NamedPattern PER_MINUTE_OR_TOO_LARGE = NamedPattern.of("per-minute-or-too-large",
            "per[ -]?min(?:ute)?\\b|\\b[RT]PM\\b|request too large|too large for");

    private RequestSizeRules() {
    }

    /** The verdict when the text says the request exceeds a per-minute limit on its own. */
    static Optional<Classification> match(String text) {
        if (text == null || !PER_MINUTE_OR_TOO_LARGE.foundIn(text)) {
            return Optional.empty();
        }
        Matcher m = LIMIT_REQUESTED.matcher(text);
        while (m.find()) {
            BigInteger limit = number(m.group(1));
            BigInteger requested = number(m.group(2));
            if (limit != null && requested != null && requested.compareTo(limit) > 0) {
                return Optional.of(Classification.terminal("text:" + RULE, Advice.REQUEST_EXCEEDS_RATE_LIMIT));
            }
        }
        return Optional.empty();
    }

    private static BigInteger number(String digits) {
        String plain = digits.replace(",", "");
        return plain.isEmpty() ? null : new BigInteger(plain);
    }
}
