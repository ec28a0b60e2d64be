package dev.rebound.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * The error faults in Google's envelope, {@code {"error":{"code","message","status","details"?}}}, pretty-printed as
 * the Gemini API sends it:
 * <ul>
 *   <li>overload: 503 {@code UNAVAILABLE} "The model is overloaded. Please try again later.";</li>
 *   <li>server error: 500 {@code INTERNAL}, or 503 {@code UNAVAILABLE} in its "high demand" wording;</li>
 *   <li>rate limit: 429 {@code RESOURCE_EXHAUSTED} with a {@code QuotaFailure} of the per-minute quota
 *       {@code GenerateRequestsPerMinutePerProjectPerModel-FreeTier}, a {@code Help} link and a {@code RetryInfo}
 *       {@code retryDelay} ("2s", "1.5s"), the wait also in the message ("Please retry in 2s.");</li>
 *   <li>usage limit: the same with the per-day quota {@code GenerateRequestsPerDayPerProjectPerModel-FreeTier}, the
 *       step's reset as the {@code retryDelay};</li>
 *   <li>insufficient quota: 429 {@code RESOURCE_EXHAUSTED} "Your prepayment credits are depleted…";</li>
 *   <li>context overflow: 400 {@code INVALID_ARGUMENT} "The input token count (1200000) exceeds the maximum…";</li>
 *   <li>unauthorized: 400 (not 401) {@code INVALID_ARGUMENT} "API key not valid…" with an {@code ErrorInfo} of reason
 *       {@code API_KEY_INVALID}.</li>
 * </ul>
 */
final class GeminiErrors {
    /** The content type of Google's JSON answers. */
    static final String JSON_UTF8 = "application/json; charset=UTF-8";

    private static final String TYPES = "type.googleapis.com/google.rpc.";
    private static final String QUOTA_METRIC = "generativelanguage.googleapis.com/generate_content_free_tier_requests";

    private final ObjectMapper mapper;
    private final ObjectWriter pretty;

    GeminiErrors(ObjectMapper mapper) {
        this.mapper = mapper;
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        this.pretty = mapper.writer(new DefaultPrettyPrinter(
                        Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter));
    }

    /** The error response of an error fault; empty for the faults answered with a 200 or not at all. */
    Optional<ErrorResponse> of(Fault fault, ReplyRequest request) {
        return Optional.ofNullable(
                switch (fault) {
                    case Fault.Overload _ ->
                        error(503, "UNAVAILABLE", "The model is overloaded. Please try again later.");
                    case Fault.ServerError e
                    when e.status() == 503 ->
                        error(
                                503,
                                "UNAVAILABLE",
                                "This model is currently experiencing high demand. Spikes in demand are usually "
                                        + "temporary. Please try again later.");
                    case Fault.ServerError _ ->
                        error(
                                500,
                                "INTERNAL",
                                "An internal error has occurred. Please retry or report in "
                                        + "https://developers.generativeai.google/guide/troubleshooting");
                    case Fault.RateLimit r ->
                        quota(
                                request.model(),
                                "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
                                10,
                                r.retryAfterMs() != null
                                        ? BigDecimal.valueOf(r.retryAfterMs()).movePointLeft(3)
                                        : BigDecimal.valueOf(r.retryAfterSeconds()));
                    case Fault.UsageLimit u ->
                        quota(
                                request.model(),
                                "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                                250,
                                BigDecimal.valueOf(u.resetsInSeconds()));
                    case Fault.InsufficientQuota _ ->
                        error(
                                429,
                                "RESOURCE_EXHAUSTED",
                                "Your prepayment credits are depleted. Please go to AI Studio at "
                                        + "https://ai.studio/projects to manage your project and billing.");
                    case Fault.ContextOverflow _ ->
                        error(
                                400,
                                "INVALID_ARGUMENT",
                                "The input token count (1200000) exceeds the maximum number of tokens allowed "
                                        + "(1048576).");
                    case Fault.Unauthorized _ -> badKey();
                    default -> null;
                });
    }

    /** The 400 of a request the simulator cannot read. */
    ErrorResponse badRequest(String message) {
        return error(400, "INVALID_ARGUMENT", message);
    }

    /** The {@code {"error":{…}}} envelope, as a body or a stream chunk. */
    ObjectNode envelope(int code, String status, String message) {
        ObjectNode root = mapper.createObjectNode();
        root.putObject("error").put("code", code).put("message", message).put("status", status);
        return root;
    }

    private ErrorResponse quota(String model, String quotaId, int limit, BigDecimal seconds) {
        String delay = seconds.stripTrailingZeros().toPlainString() + "s";
        ObjectNode root = envelope(
                429,
                "RESOURCE_EXHAUSTED",
                "You exceeded your current quota, please check your plan and billing details. For more information "
                        + "on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota "
                        + "exceeded for metric: " + QUOTA_METRIC + ", limit: " + limit + ", model: " + model
                        + "\nPlease retry in " + delay + ".");
        ArrayNode details = ((ObjectNode) root.get("error")).putArray("details");
        ObjectNode violation = details.addObject()
                .put("@type", TYPES + "QuotaFailure")
                .putArray("violations")
                .addObject()
                .put("quotaMetric", QUOTA_METRIC)
                .put("quotaId", quotaId);
        violation.putObject("quotaDimensions").put("location", "global").put("model", model);
        violation.put("quotaValue", Integer.toString(limit));
        details.addObject()
                .put("@type", TYPES + "Help")
                .putArray("links")
                .addObject()
                .put("description", "Learn more about Gemini API quotas")
                .put("url", "https://ai.google.dev/gemini-api/docs/rate-limits");
        details.addObject().put("@type", TYPES + "RetryInfo").put("retryDelay", delay);
        return response(429, root);
    }

    private ErrorResponse badKey() {
        String message = "API key not valid. Please pass a valid API key.";
        ObjectNode root = envelope(400, "INVALID_ARGUMENT", message);
        ArrayNode details = ((ObjectNode) root.get("error")).putArray("details");
        ObjectNode info = details.addObject()
                .put("@type", TYPES + "ErrorInfo")
                .put("reason", "API_KEY_INVALID")
                .put("domain", "googleapis.com");
        info.putObject("metadata").put("service", "generativelanguage.googleapis.com");
        details.addObject()
                .put("@type", TYPES + "LocalizedMessage")
                .put("locale", "en-US")
                .put("message", message);
        return response(400, root);
    }

    private ErrorResponse error(int code, String status, String message) {
        return response(code, envelope(code, status, message));
    }

    private ErrorResponse response(int code, ObjectNode root) {
        try {
            return new ErrorResponse(code, Map.of("Content-Type", JSON_UTF8), pretty.writeValueAsString(root) + "\n");
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
