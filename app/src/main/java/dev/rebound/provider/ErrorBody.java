package dev.rebound.provider;

import java.util.ArrayList;
import java.util.List;

/**
 * What a provider's error body (or an error object inside a stream) says, in a shape common to all providers.
 *
 * @param message the provider's message, verbatim (a plain-text or HTML body is reduced to one short line), or null
 * @param type the provider's error type ({@code rate_limit_error}; Gemini's {@code status} such as
 *     {@code RESOURCE_EXHAUSTED}), or null
 * @param code the provider's error code as text ({@code rate_limit_exceeded}; a numeric {@code 429} becomes
 *     {@code "429"}), or null
 * @param retryDelay Gemini's {@code RetryInfo.retryDelay} ({@code "38s"}), or null
 * @param quotas the quotas a Google {@code QuotaFailure} names as violated (their {@code quotaId}, else
 *     {@code quotaMetric}), comma-separated ({@code GenerateRequestsPerDayPerProjectPerModel-FreeTier}), or null: they
 *     tell a per-day quota from a per-minute one
 */
public record ErrorBody(String message, String type, String code, String retryDelay, String quotas) {
    /** A body that said nothing. */
    public static final ErrorBody EMPTY = new ErrorBody(null, null, null, null, null);

    /** A body that names no violated quota. */
    public ErrorBody(String message, String type, String code, String retryDelay) {
        this(message, type, code, retryDelay, null);
    }

    /**
     * The structured facts for an error message: {@code " (type: X, code: Y, retryDelay: Z, quota: Q)"} with only the
     * parts present, or an empty string.
     */
    public String qualifiers() {
        List<String> parts = new ArrayList<>(4);
        if (type != null) {
            parts.add("type: " + type);
        }
        if (code != null) {
            parts.add("code: " + code);
        }
        if (retryDelay != null) {
            parts.add("retryDelay: " + retryDelay);
        }
        if (quotas != null) {
            parts.add("quota: " + quotas);
        }
        return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }
}
