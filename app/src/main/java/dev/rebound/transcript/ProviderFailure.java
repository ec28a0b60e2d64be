package dev.rebound.transcript;

import java.util.Map;

/**
 * The structured facts of a failed provider call, for the retry classifier and for people reading a log. Never holds a
 * secret: only headers that matter for retry decisions and diagnosis are kept.
 *
 * @param kind where the call failed
 * @param httpStatus the HTTP status, or null when the call failed without one
 * @param errorType the provider's error type ({@code overloaded_error}, {@code RESOURCE_EXHAUSTED}...), or null
 * @param errorCode the provider's error code ({@code rate_limit_exceeded}, {@code insufficient_quota}...), or null
 * @param headers lower-case response header names to values: retry hints, rate-limit headers, request ids
 */
public record ProviderFailure(
        FailureKind kind, Integer httpStatus, String errorType, String errorCode, Map<String, String> headers) {
    public ProviderFailure {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    /** A failure with no HTTP facts. */
    public static ProviderFailure of(FailureKind kind) {
        return new ProviderFailure(kind, null, null, null, Map.of());
    }

    /** The value of a kept response header (lower-case name), or null. */
    public String header(String lowerCaseName) {
        return headers.get(lowerCaseName);
    }
}
