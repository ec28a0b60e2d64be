package dev.rebound.retry;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises a request that alone is larger than a per-minute token limit: no wait can ever let it through, so it is
 * terminal, with advice. When the request fits the limit ({@code Limit 10000, Used 9990, Requested 500}) the limit is
 * only busy: a rate limit.
 *
 * <p>The sizes are read in either order, with or without colons, {@code =}, thousands separators or a "~": "Limit
 * 30000, Requested 49447" (OpenAI, Groq), "Limit=30000, Requested=45000", "requested 12000 tokens, limit is 8000",
 * "This request (45,000 tokens) exceeds your per-minute token limit of 30,000", "limit (20000) is smaller than the
 * request size (25000)", "a rate limit … of 40,000 input tokens per minute. Requested: 52,311 tokens". Only where the
 * text speaks of a per-minute budget or calls the request too large.
 */
final class RequestSizeRules {
    static final String RULE = "request-exceeds-rate-limit";

    private static final String NUMBER = "~?\\s*(\\d[\\d,]*)";
    private static final String LIMIT = "\\blimit\\b(?:\\s*(?:is|of|was|=|:))?[^\\d.\\n]{0,12}?\\(?" + NUMBER;
    private static final String REQUESTED =
            "\\b(?:requested|request(?: size)?|this request)\\b(?:\\s*(?:is|was|=|:|of))?" + "[^\\d.\\n]{0,12}?\\(?"
                    + NUMBER;
    /** Each pair of the request's size and the limit, as group "limit" then "requested" or the other way round. */
    private static final List<Pattern> PAIRS = List.of(
            Pattern.compile(
                    LIMIT.replace("(\\d[\\d,]*)", "(?<limit>\\d[\\d,]*)") + "[^\\n]{0,80}?"
                            + REQUESTED.replace("(\\d[\\d,]*)", "(?<requested>\\d[\\d,]*)"),
                    Pattern.CASE_INSENSITIVE),
            Pattern.compile(
                    REQUESTED.replace("(\\d[\\d,]*)", "(?<requested>\\d[\\d,]*)") + "[^\\n]{0,80}?"
                            + LIMIT.replace("(\\d[\\d,]*)", "(?<limit>\\d[\\d,]*)"),
                    Pattern.CASE_INSENSITIVE),
            Pattern.compile(
                    "\\bof " + NUMBER.replace("(\\d[\\d,]*)", "(?<limit>\\d[\\d,]*)") + " (?:input |output )?"
                            + "tokens per minute\\b[^\\n]{0,60}?\\brequested:?\\s*"
                            + NUMBER.replace("(\\d[\\d,]*)", "(?<requested>\\d[\\d,]*)"),
                    Pattern.CASE_INSENSITIVE));
    /** The budget is a per-minute one, or the provider itself calls the request too large. */
    private static final NamedPattern PER_MINUTE_OR_TOO_LARGE = NamedPattern.of(
            "per-minute-or-too-large",
            "per[ _-]?min(?:ute)?\\b|\\b[RT]PM\\b|/ ?min\\b|request too large|too large for");

    private RequestSizeRules() {}

    /** The verdict when the text says the request exceeds a per-minute limit on its own. */
    static Optional<Classification> match(String text) {
        if (text == null || !PER_MINUTE_OR_TOO_LARGE.foundIn(text)) {
            return Optional.empty();
        }
        for (Pattern pair : PAIRS) {
            Matcher m = pair.matcher(text);
            while (m.find()) {
                BigInteger limit = number(m.group("limit"));
                BigInteger requested = number(m.group("requested"));
                if (limit != null && requested != null && requested.compareTo(limit) > 0) {
                    return Optional.of(Classification.terminal("text:" + RULE, Advice.REQUEST_EXCEEDS_RATE_LIMIT));
                }
            }
        }
        return Optional.empty();
    }

    private static BigInteger number(String digits) {
        String plain = digits.replace(",", "");
        return plain.isEmpty() ? null : new BigInteger(plain);
    }
}
