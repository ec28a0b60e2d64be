package dev.rebound.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP error responses of the error faults, shaped like the real providers' responses so that Rebound's error
 * classifier decides on them exactly as it would in production:
 * <ul>
 *   <li>overload: Anthropic's 529 {@code {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}};</li>
 *   <li>server error: OpenAI's 503 "The server is overloaded or not ready yet." or 500 {@code server_error} body;</li>
 *   <li>rate limit: OpenAI's 429 {@code rate_limit_exceeded} body, with {@code retry-after} or {@code retry-after-ms}
 *       and the "Please try again in …" wording OpenAI uses;</li>
 *   <li>usage limit: the 429 {@code usage_limit_reached} body of ChatGPT-plan backends with {@code resets_at} and
 *       {@code resets_in_seconds}, plus a {@code retry-after} header carrying the same wait;</li>
 *   <li>insufficient quota: OpenAI's 429 {@code insufficient_quota} body;</li>
 *   <li>context overflow: OpenAI's 400 {@code context_length_exceeded} body;</li>
 *   <li>unauthorized: OpenAI's 401 {@code invalid_api_key} body (the key shown masked, as OpenAI does).</li>
 * </ul>
 */
final class FaultResponses {
    private final ObjectMapper mapper;
    private final Clock clock;

    FaultResponses(ObjectMapper mapper, Clock clock) {
        this.mapper = mapper;
        this.clock = clock;
    }

    /** The error response of an error fault; empty for the faults that answer with a stream or not at all. */
    Optional<ErrorResponse> of(Fault fault, String model, String key, String requestId) {
        return switch (fault) {
            case Fault.Overload _ -> Optional.of(overload(requestId));
            case Fault.ServerError e
            when e.status() == 503 ->
                Optional.of(openAi(
                        503, Map.of(), "The server is overloaded or not ready yet.", "server_error", null, null));
            case Fault.ServerError e ->
                Optional.of(openAi(
                        e.status(),
                        Map.of(),
                        "The server had an error while " + "processing your request. Sorry about that!",
                        "server_error",
                        null,
                        null));
            case Fault.RateLimit r -> Optional.of(rateLimit(r, model));
            case Fault.UsageLimit u -> Optional.of(usageLimit(u));
            case Fault.InsufficientQuota _ ->
                Optional.of(openAi(
                        429,
                        Map.of(),
                        "You exceeded your current quota, "
                                + "please check your plan and billing details. For more information on this error, read the docs: "
                                + "https://platform.openai.com/docs/guides/error-codes/api-errors.",
                        "insufficient_quota",
                        null,
                        "insufficient_quota"));
            case Fault.ContextOverflow _ ->
                Optional.of(openAi(
                        400,
                        Map.of(),
                        "This model's maximum context length "
                                + "is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length "
                                + "of the messages.",
                        "invalid_request_error",
                        "messages",
                        "context_length_exceeded"));
            case Fault.Unauthorized _ ->
                Optional.of(openAi(
                        401,
                        Map.of(),
                        "Incorrect API key provided: " + masked(key)
                                + ". You can find your API key at https://platform.openai.com/account/api-keys.",
                        "invalid_request_error",
                        null,
                        "invalid_api_key"));
            default -> Optional.empty();
        };
    }

    /** The 404 of a path the simulator does not serve. */
    ErrorResponse notFound(String method, String path) {
        return openAi(404, Map.of(), "Invalid URL (" + method + " " + path + ")", "invalid_request_error", null, null);
    }

    /** The 400 of a request body the simulator cannot read. */
    ErrorResponse badRequest(String message) {
        return openAi(400, Map.of(), message, "invalid_request_error", null, null);
    }

    private ErrorResponse overload(String requestId) {
        ObjectNode root = mapper.createObjectNode().put("type", "error");
        root.putObject("error").put("type", "overloaded_error").put("message", "Overloaded");
        root.put("request_id", requestId);
        return new ErrorResponse(529, Map.of(), root.toString());
    }

    private ErrorResponse rateLimit(Fault.RateLimit fault, String model) {
        Map<String, String> headers = new LinkedHashMap<>();
        String wait;
        if (fault.retryAfterMs() != null) {
            headers.put("retry-after-ms", Long.toString(fault.retryAfterMs()));
            wait = fault.retryAfterMs() + "ms";
        } else {
            headers.put("retry-after", Long.toString(fault.retryAfterSeconds()));
            wait = fault.retryAfterSeconds() + "s";
        }
        headers.put("x-ratelimit-limit-requests", "3");
        headers.put("x-ratelimit-remaining-requests", "0");
        return openAi(
                429,
                headers,
                "Rate limit reached for " + model + " in organization org-simulator on requests "
                        + "per min (RPM): Limit 3, Used 3, Requested 1. Please try again in " + wait + ". Visit "
                        + "https://platform.openai.com/account/rate-limits to learn more.",
                "requests",
                null,
                "rate_limit_exceeded");
    }

    private ErrorResponse usageLimit(Fault.UsageLimit fault) {
        long resetsAt = clock.instant().getEpochSecond() + fault.resetsInSeconds();
        ObjectNode root = mapper.createObjectNode();
        root.putObject("error")
                .put("type", "usage_limit_reached")
                .put("message", "The usage limit has been reached")
                .put("plan_type", "plus")
                .put("resets_at", resetsAt)
                .put("resets_in_seconds", fault.resetsInSeconds());
        return new ErrorResponse(429, Map.of("retry-after", Long.toString(fault.resetsInSeconds())), root.toString());
    }

    /** An error in OpenAI's shape: {@code {"error":{"message","type","param","code"}}}. */
    ErrorResponse openAi(
            int status, Map<String, String> headers, String message, String type, String param, String code) {
        ObjectNode root = mapper.createObjectNode();
        ObjectNode error = root.putObject("error").put("message", message).put("type", type);
        if (param == null) {
            error.putNull("param");
        } else {
            error.put("param", param);
        }
        if (code == null) {
            error.putNull("code");
        } else {
            error.put("code", code);
        }
        return new ErrorResponse(status, headers, root.toString());
    }

    /** A key as OpenAI shows it in a 401: the first and last four characters. */
    private static String masked(String key) {
        if (key == null) {
            return "(none)";
        }
        return key.length() <= 8
                ? "****"
                : key.substring(0, 4) + "*".repeat(Math.min(key.length() - 8, 20)) + key.substring(key.length() - 4);
    }
}
