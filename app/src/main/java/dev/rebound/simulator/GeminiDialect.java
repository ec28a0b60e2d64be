package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Google's Gemini API: {@code POST /v1beta/models/{model}:streamGenerateContent} (server-sent events; the simulator
 * streams them whether or not {@code alt=sse} is asked, where the real API would otherwise stream a JSON array) and
 * {@code :generateContent} (one response), {@code /v1/models/…} alike; the body {@code {systemInstruction?,
 * contents: [{role: "user"|"model", parts: [{text}]}]}}, the key as {@code x-goog-api-key} or the {@code key} query
 * parameter. Errors are {@link GeminiErrors}', answers {@link GeminiFormat}'s.
 */
final class GeminiDialect implements WireDialect {
    /** The paths it answers: the version, the model, the method. */
    static final Pattern PATH = Pattern.compile("/(v1beta|v1)/models/([^/:]+):(streamGenerateContent|generateContent)");

    private static final Pattern KEY_PARAMETER = Pattern.compile("(?:^|&)key=([^&]*)");

    private final ObjectMapper mapper;
    private final GeminiErrors errors;

    GeminiDialect(ObjectMapper mapper) {
        this.mapper = mapper;
        this.errors = new GeminiErrors(mapper);
    }

    @Override
    public Reading read(Incoming incoming) {
        Matcher path = PATH.matcher(incoming.uri().getPath());
        JsonNode body = incoming.body();
        if (!path.matches()
                || body == null
                || !body.isObject()
                || !body.path("contents").isArray()) {
            return new Reading.Refused(errors.badRequest(
                    "The request body must be a JSON object with a \"contents\" array (Gemini generateContent "
                            + "format)."));
        }
        JsonNode contents = body.path("contents");
        int promptTokens =
                Tokens.count(PromptText.of(body.path("systemInstruction").path("parts")));
        String prompt = "";
        for (JsonNode content : contents) {
            String text = PromptText.of(content.path("parts"));
            promptTokens += Tokens.count(text);
            if (!"model".equals(content.path("role").asText("user"))) {
                prompt = text;
            }
        }
        return new Reading.Accepted(new ReplyRequest(
                body,
                path.group(2),
                key(incoming),
                prompt,
                promptTokens,
                path.group(3).equals("streamGenerateContent"),
                incoming.requestId(),
                incoming.number()));
    }

    /** The {@code x-goog-api-key} header, else the {@code key} query parameter, else null. */
    private static String key(Incoming incoming) {
        String header = incoming.headers().getFirst("x-goog-api-key");
        if (header != null && !header.isBlank()) {
            return header.strip();
        }
        String query = incoming.uri().getQuery();
        Matcher key = KEY_PARAMETER.matcher(query == null ? "" : query);
        return key.find() && !key.group(1).isEmpty() ? key.group(1) : null;
    }

    @Override
    public Optional<ErrorResponse> error(Fault fault, ReplyRequest request) {
        return errors.of(fault, request);
    }

    @Override
    public ReplyFormat format(ReplyRequest request) {
        return new GeminiFormat(mapper, request);
    }
}
