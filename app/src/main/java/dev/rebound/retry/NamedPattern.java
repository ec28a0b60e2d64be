package dev.rebound.retry;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A case-insensitive pattern with the short name a verdict's rule carries ({@code text:<name>}).
 *
 * @param name stable, lower-case, hyphenated
 * @param pattern compiled once, when the rule lists are built
 */
record NamedPattern(String name, Pattern pattern) {

    /** A pattern compiled case-insensitively (Unicode-aware). */
    static NamedPattern of(String name, String regex) {
        return new NamedPattern(name, Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
    }

    /** Whether the pattern occurs anywhere in {@code text}; false for null. */
    boolean foundIn(String text) {
        return text != null && pattern.matcher(text).find();
    }

    /** The name of the first pattern of {@code patterns} that occurs in {@code text}. */
    static Optional<String> firstIn(List<NamedPattern> patterns, String text) {
        for (NamedPattern p : patterns) {
            if (p.foundIn(text)) {
                return Optional.of(p.name());
            }
        }
        return Optional.empty();
    }

    /**
     * A regex that matches {@code number} only as a whole token: no letter, digit, {@code _} or {@code -} right before
     * or after it, and not part of a decimal ({@code .} followed by a digit on either side), so "4294 tokens" is not
     * 429, a request id like {@code req_504abc} is not 504, and "took 2.503 seconds" is not 503.
     */
    static String wholeNumber(String number) {
        return "(?<![\\p{L}\\p{N}_-])(?<!\\p{N}\\.)" + number + "(?![\\p{L}\\p{N}_-])(?!\\.\\p{N})";
    }
}
