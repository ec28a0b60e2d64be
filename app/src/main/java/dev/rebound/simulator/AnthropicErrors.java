package dev.rebound.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The error faults in Anthropic's own shape: {@code {"type":"error","error":{"type","message"},"request_id"}}, with a
 * {@code request-id} header and the {@code x-should-retry} verdict Anthropic's SDKs obey:
 * <ul>
 *   <li>overload: 529 {@code overloaded_error} "Overloaded";</li>
 *   <li>server error: 500 {@code api_error} "Internal server error" (Anthropic has no 503; the step's status is
 *       ignored);</li>
 *   <li>rate limit: 429 {@code rate_limit_error} with {@code retry-after} (seconds, rounded up; a step in milliseconds
 *       also sends {@code retry-after-ms}) and the {@code anthropic-ratelimit-requests-*} headers, the reset as an RFC
 *       3339 time;</li>
 *   <li>usage limit: 429 {@code rate_limit_error} worded as a plan's usage limit with its reset time, a
 *       {@code retry-after} and the {@code anthropic-ratelimit-unified-*} headers of subscription plans;</li>
 *   <li>insufficient quota: 400 {@code invalid_request_error} "Your credit balance is too low…";</li>
 *   <li>context overflow: 400 {@code invalid_request_error} "prompt is too long: 210000 tokens > 200000 maximum";</li>
 *   <li>unauthorized: 401 {@code authentication_error} "invalid x-api-key".</li>
 * </ul>
 */
final class AnthropicErrors {
    /** The organization the rate-limit message names. */
    static final String ORGANIZATION = "00000000-0000-4000-8000-000000000000";

    private static final int REQUESTS_PER_MINUTE = 50;

    private final ObjectMapper mapper;
    private final Clock clock;

    AnthropicErrors(ObjectMapper mapper, Clock clock) {
        this.mapper = mapper;
        this.clock = clock;
    }

    /** The error response of an error fault; empty for the faults answered with a 200 or not at all. */
    Optional<ErrorResponse> of(Fault fault, ReplyRequest request) {
        String id = request.requestId();
        return switch (fault) {
            case Fault.Overload _ -> Optional.of(error(529, id, true, "overloaded_error", "Overloaded"));
            case Fault.ServerError _ -> Optional.of(error(500, id, true, "api_error", "Internal server error"));
            case Fault.RateLimit r -> Optional.of(rateLimit(r, request));
            case Fault.UsageLimit u -> Optional.of(usageLimit(u, id));
            case Fault.InsufficientQuota _ ->
                Optional.of(error(
                        400,
                        id,
                        false,
                        "invalid_request_error",
                        "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing "
                                + "to upgrade or purchase credits."));
            case Fault.ContextOverflow _ ->
                Optional.of(error(
                        400, id, false, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"));
            case Fault.Unauthorized _ ->
                Optional.of(error(401, id, false, "authentication_error", "invalid x-api-key"));
            default -> Optional.empty();
        };
    }

    /** The 400 of a request the simulator cannot read. */
    ErrorResponse badRequest(String requestId, String message) {
        return error(400, requestId, false, "invalid_request_error", message);
    }

    /** The {@code {"type":"error",…}} object of an error, as a body or an {@code event: error}'s data. */
    ObjectNode body(String requestId, String type, String message) {
        ObjectNode root = mapper.createObjectNode().put("type", "error");
        root.putObject("error").put("type", type).put("message", message);
        return root.put("request_id", requestId);
    }

    private ErrorResponse rateLimit(Fault.RateLimit fault, ReplyRequest request) {
        Map<String, String> headers = new LinkedHashMap<>();
        long seconds;
        if (fault.retryAfterMs() != null) {
            seconds = (fault.retryAfterMs() + 999) / 1000;
            headers.put("retry-after-ms", Long.toString(fault.retryAfterMs()));
        } else {
            seconds = fault.retryAfterSeconds();
        }
        headers.put("retry-after", Long.toString(seconds));
        headers.put("anthropic-ratelimit-requests-limit", Integer.toString(REQUESTS_PER_MINUTE));
        headers.put("anthropic-ratelimit-requests-remaining", "0");
        headers.put("anthropic-ratelimit-requests-reset", rfc3339(seconds));
        String message = "This request would exceed your organization's rate limit of " + REQUESTS_PER_MINUTE
                + " requests per minute (org: " + ORGANIZATION + ", model: " + request.model() + "). For details, "
                + "refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current "
                + "usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You "
                + "may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a "
                + "rate limit increase.";
        return error(429, request.requestId(), true, "rate_limit_error", message, headers);
    }

    /** A plan's limit: no {@code x-should-retry}, which would make the SDKs retry it within a minute or never. */
    private ErrorResponse usageLimit(Fault.UsageLimit fault, String requestId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("retry-after", Long.toString(fault.resetsInSeconds()));
        headers.put("anthropic-ratelimit-unified-status", "rejected");
        headers.put(
                "anthropic-ratelimit-unified-reset",
                Long.toString(
                        clock.instant().plusSeconds(fault.resetsInSeconds()).getEpochSecond()));
        String message = "You have reached your plan's 5-hour usage limit. Your limit resets at "
                + rfc3339(fault.resetsInSeconds()) + ".";
        return error(429, requestId, null, "rate_limit_error", message, headers);
    }

    private ErrorResponse error(int status, String requestId, Boolean shouldRetry, String type, String message) {
        return error(status, requestId, shouldRetry, type, message, Map.of());
    }

    /** An error with {@code request-id}, {@code x-should-retry} unless it is null, then the {@code more} headers. */
    private ErrorResponse error(
            int status, String requestId, Boolean shouldRetry, String type, String message, Map<String, String> more) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("request-id", requestId);
        if (shouldRetry != null) {
            headers.put("x-should-retry", shouldRetry.toString());
        }
        headers.putAll(more);
        return new ErrorResponse(status, headers, body(requestId, type, message).toString());
    }

    /** Now plus {@code seconds}, as Anthropic's headers write a time: {@code 2026-02-27T12:52:07Z}. */
    private String rfc3339(long seconds) {
        return clock.instant()
                .plusSeconds(seconds)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
    }
}
