package dev.rebound.api;

import java.util.Map;

/**
 * The structured facts of a failed provider call. Never holds a secret: only response headers that matter for retry
 * decisions and diagnosis are kept (retry hints, rate-limit headers, request ids).
 *
 * @param kind where the call failed
 * @param httpStatus the HTTP status, or null when the call failed without one
 * @param errorType the provider's error type ({@code overloaded_error}, {@code RESOURCE_EXHAUSTED}...), or null
 * @param errorCode the provider's error code ({@code rate_limit_exceeded}, {@code insufficient_quota}...), or null
 * @param headers lower-case response header names to values
 */
public record ProviderFailure(
        FailureKind kind, Integer httpStatus, String errorType, String errorCode, Map<String, String> headers) {
    /** Keeps an immutable copy of the headers; null means none. */
    public ProviderFailure {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    /**
     * A failure with no HTTP facts.
     *
     * @param kind where the call failed
     * @return the failure
     */
    public static ProviderFailure of(FailureKind kind) {
        return new ProviderFailure(kind, null, null, null, Map.of());
    }

    /**
     * A failed HTTP response.
     *
     * @param status the HTTP status
     * @param errorType the provider's error type, or null
     * @param errorCode the provider's error code, or null
     * @return the failure
     */
    public static ProviderFailure http(int status, String errorType, String errorCode) {
        return new ProviderFailure(FailureKind.HTTP, status, errorType, errorCode, Map.of());
    }
}
