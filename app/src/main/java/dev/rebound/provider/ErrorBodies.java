package dev.rebound.provider;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the error bodies of LLM providers, whatever their shape:
 * <ul>
 *   <li>OpenAI and most compatible servers: {@code {"error":{"message","type","code","param"}}};</li>
 *   <li>Anthropic: {@code {"type":"error","error":{"type","message"}}};</li>
 *   <li>Google Gemini: {@code {"error":{"code":429,"message","status":"RESOURCE_EXHAUSTED","details":[...]}}}, where
 *       {@code status} becomes the type, and a {@code RetryInfo.retryDelay} and the quotas a {@code QuotaFailure} names
 *       are kept; its OpenAI-compatible endpoint wraps this in a JSON array;</li>
 *   <li>OpenRouter: {@code {"error":{"message","code":429,"metadata":{"raw","provider_name"}}}}, the upstream's raw
 *       error appended to the message;</li>
 *   <li>flat objects: {@code {"object":"error","message","type","code"}} (vLLM, Mistral), {@code {"message"}},
 *       {@code {"detail"}} (FastAPI), {@code {"error":"text"}} (Ollama);</li>
 *   <li>an error message that is itself a JSON error document (a proxy wrapping its upstream's body);</li>
 *   <li>plain text and HTML pages (a proxy's 502), reduced to one short line.</li>
 * </ul>
 * Parsing never throws; what cannot be understood is kept as text.
 */
public final class ErrorBodies {
    /** Longest provider message kept verbatim. */
    static final int MAX_MESSAGE_CHARS = 2000;
    /** Longest line kept from a plain-text or HTML body. */
    static final int MAX_TEXT_CHARS = 300;

    private static final int MAX_UPSTREAM_CHARS = 500;
    private static final int MAX_QUOTA_CHARS = 120;

    private static final Pattern SCRIPT_OR_STYLE = Pattern.compile("(?is)<(script|style)\\b[^>]*>.*?</\\1\\s*>");
    private static final Pattern COMMENT = Pattern.compile("(?s)<!--.*?-->");
    private static final Pattern TAG = Pattern.compile("<[^>]*>");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private final ObjectMapper mapper;

    /** Parses with {@code mapper} (see {@code Json.newMapper()}). */
    public ErrorBodies(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** What an HTTP error body says; {@link ErrorBody#EMPTY} for an empty body. */
    public ErrorBody parse(String body) {
        if (body == null || body.isBlank()) {
            return ErrorBody.EMPTY;
        }
        String trimmed = body.strip();
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            JsonNode root = readTree(trimmed);
            if (root != null) {
                ErrorBody parsed = fromJson(root);
                return parsed.message() != null
                        ? parsed
                        : new ErrorBody(
                                singleLine(trimmed, MAX_TEXT_CHARS), parsed.type(), parsed.code(), parsed.retryDelay());
            }
        }
        String text = trimmed.startsWith("<") ? htmlToText(trimmed) : trimmed;
        String line = singleLine(text, MAX_TEXT_CHARS);
        return line.isEmpty() ? ErrorBody.EMPTY : new ErrorBody(line, null, null, null);
    }

    /**
     * The object of a stream event that holds its error: the event itself when it has an {@code error}, else its first
     * choice that has one (OpenRouter reports an upstream failure as {@code choices[0].error} with
     * {@code finish_reason: "error"}); null when there is none.
     */
    public static JsonNode errorHolder(JsonNode event) {
        if (event == null || !event.isObject()) {
            return null;
        }
        if (hasError(event)) {
            return event;
        }
        JsonNode choices = event.get("choices");
        if (choices != null && choices.isArray()) {
            for (JsonNode choice : choices) {
                if (hasError(choice)) {
                    return choice;
                }
            }
        }
        return null;
    }

    private static boolean hasError(JsonNode node) {
        JsonNode error = node.get("error");
        return error != null && !error.isNull();
    }

    /** What a parsed error document says (an HTTP error body, or an event of a stream that carries an error). */
    public ErrorBody fromJson(JsonNode root) {
        if (root == null || root.isNull() || root.isMissingNode()) {
            return ErrorBody.EMPTY;
        }
        if (root.isArray()) {
            for (JsonNode element : root) {
                if (element.isObject()) {
                    return fromJson(element);
                }
            }
            return new ErrorBody(capped(text(root)), null, null, null);
        }
        if (!root.isObject()) {
            return new ErrorBody(capped(text(root)), null, null, null);
        }
        JsonNode error = root.get("error");
        if (error != null && error.isObject()) {
            String message = withUpstream(text(error.get("message")), error.get("metadata"));
            String type = firstNonNull(text(error.get("type")), text(error.get("status")));
            JsonNode details = error.get("details");
            ErrorBody body =
                    new ErrorBody(message, type, text(error.get("code")), retryDelay(details), quotas(details));
            return unwrapNested(body);
        }
        if (error != null && error.isTextual()) {
            return unwrapNested(new ErrorBody(text(error), text(root.get("type")), text(root.get("code")), null));
        }
        String message = firstNonNull(text(root.get("message")), text(root.get("detail")));
        return unwrapNested(new ErrorBody(message, text(root.get("type")), text(root.get("code")), null));
    }

    /** Collapses whitespace to single spaces and cuts the text to {@code max} characters (ending in "…"). */
    public static String singleLine(String text, int max) {
        String line = WHITESPACE.matcher(text).replaceAll(" ").strip();
        return line.length() <= max ? line : line.substring(0, max - 1) + "…";
    }

    /** The visible text of an HTML page: scripts, styles, comments and tags removed, common entities decoded. */
    static String htmlToText(String html) {
        String text = SCRIPT_OR_STYLE.matcher(html).replaceAll(" ");
        text = COMMENT.matcher(text).replaceAll(" ");
        text = TAG.matcher(text).replaceAll(" ");
        return text.replace("&nbsp;", " ")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
    }

    /** A proxy may put its upstream's whole JSON error body into the message; read the inner one then. */
    private ErrorBody unwrapNested(ErrorBody outer) {
        String message = outer.message();
        if (message == null) {
            return outer;
        }
        String trimmed = message.strip();
        if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
            return new ErrorBody(capped(message), outer.type(), outer.code(), outer.retryDelay(), outer.quotas());
        }
        JsonNode nested = readTree(trimmed);
        ErrorBody inner = nested == null ? ErrorBody.EMPTY : fromJson(nested);
        if (inner.message() == null) {
            return new ErrorBody(capped(message), outer.type(), outer.code(), outer.retryDelay(), outer.quotas());
        }
        return new ErrorBody(
                inner.message(),
                firstNonNull(inner.type(), outer.type()),
                firstNonNull(inner.code(), outer.code()),
                firstNonNull(inner.retryDelay(), outer.retryDelay()),
                firstNonNull(inner.quotas(), outer.quotas()));
    }

    private JsonNode readTree(String json) {
        try {
            return mapper.readTree(json);
        } catch (JacksonException e) {
            return null;
        }
    }

    private static String withUpstream(String message, JsonNode metadata) {
        if (metadata == null || !metadata.isObject()) {
            return message;
        }
        String raw = text(metadata.get("raw"));
        if (raw == null) {
            return message;
        }
        String provider = text(metadata.get("provider_name"));
        String upstream = "(upstream" + (provider == null ? "" : " " + provider) + ": "
                + singleLine(raw, MAX_UPSTREAM_CHARS) + ")";
        return message == null ? upstream : message + " " + upstream;
    }

    private static String retryDelay(JsonNode details) {
        if (details == null || !details.isArray()) {
            return null;
        }
        for (JsonNode detail : details) {
            String delay = text(detail.get("retryDelay"));
            if (delay != null) {
                return delay;
            }
        }
        return null;
    }

    /**
     * The violated quotas of a Google {@code QuotaFailure} detail: each violation's {@code quotaId}, else its
     * {@code quotaMetric}, comma-separated without repeats; null when there is none.
     */
    private static String quotas(JsonNode details) {
        if (details == null || !details.isArray()) {
            return null;
        }
        Set<String> quotas = new LinkedHashSet<>();
        for (JsonNode detail : details) {
            JsonNode violations = detail.get("violations");
            if (violations == null || !violations.isArray()) {
                continue;
            }
            for (JsonNode violation : violations) {
                String quota = firstNonNull(text(violation.get("quotaId")), text(violation.get("quotaMetric")));
                if (quota != null) {
                    quotas.add(singleLine(quota, MAX_QUOTA_CHARS));
                }
            }
        }
        return quotas.isEmpty() ? null : String.join(", ", quotas);
    }

    /** A node as text: strings verbatim, numbers and booleans printed, objects and arrays as compact JSON. */
    private static String text(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        String text = node.isTextual() ? node.textValue() : node.isValueNode() ? node.asText() : node.toString();
        return text.isBlank() ? null : text;
    }

    private static String capped(String message) {
        if (message == null || message.length() <= MAX_MESSAGE_CHARS) {
            return message;
        }
        return message.substring(0, MAX_MESSAGE_CHARS - 1) + "…";
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b;
    }
}
