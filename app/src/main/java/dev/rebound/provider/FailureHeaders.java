package dev.rebound.provider;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import okhttp3.Headers;

/**
 * Picks the response headers a failure keeps: retry hints ({@code retry-after}, {@code retry-after-ms},
 * {@code x-should-retry}), every rate-limit header ({@code x-ratelimit-*}, {@code anthropic-ratelimit-*}) and request ids
 * for support tickets. Names are lower-cased; repeated headers are joined with {@code ", "}. Only response headers are
 * ever passed here, so a request's {@code Authorization} header cannot end up in a failure.
 */
public final class FailureHeaders {
    private static final Set<String> NAMES = Set.of(
            "retry-after",
            "retry-after-ms",
            "x-should-retry",
            "x-request-id",
            "request-id",
            "cf-ray",
            "openai-processing-ms",
            "apim-request-id");
    private static final Set<String> PREFIXES = Set.of("x-ratelimit-", "anthropic-ratelimit-");

    private FailureHeaders() {}

    /** The retry-relevant subset of a response's headers, lower-case names in arrival order. */
    public static Map<String, String> of(Headers headers) {
        Map<String, String> kept = new LinkedHashMap<>();
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i).toLowerCase(Locale.ROOT);
            if (isKept(name)) {
                kept.merge(name, headers.value(i), (a, b) -> a + ", " + b);
            }
        }
        return kept;
    }

    private static boolean isKept(String lowerCaseName) {
        return NAMES.contains(lowerCaseName) || PREFIXES.stream().anyMatch(lowerCaseName::startsWith);
    }
}
