package dev.rebound.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The 200 answers of Gemini. A stream is {@code data: {GenerateContentResponse}} events with CRLF line ends and no
 * {@code event:} names nor end marker: one per piece of text ({@code candidates[0].content.parts[0].text}), each with
 * the running {@code usageMetadata}, then one with an empty text part, {@code finishReason: "STOP"} and the final
 * usage. A refusal is a candidate without content whose {@code finishReason} is {@code SAFETY}, one of its
 * {@code safetyRatings} {@code blocked}. A whole reply is one {@code GenerateContentResponse}. One instance per
 * request: it counts the output tokens sent.
 */
final class GeminiFormat implements ReplyFormat {
    /** The category a refusal is blocked for. */
    static final String BLOCKED_CATEGORY = "HARM_CATEGORY_DANGEROUS_CONTENT";

    private static final List<String> OTHER_CATEGORIES =
            List.of("HARM_CATEGORY_HATE_SPEECH", "HARM_CATEGORY_HARASSMENT", "HARM_CATEGORY_SEXUALLY_EXPLICIT");

    private final ObjectMapper mapper;
    private final ReplyRequest request;
    private int sentTokens;

    /**
     * @param mapper builds the JSON
     * @param request the request answered
     */
    GeminiFormat(ObjectMapper mapper, ReplyRequest request) {
        this.mapper = mapper;
        this.request = request;
    }

    /** The response's id: 23 characters, like Gemini's, the same on every chunk. */
    String responseId() {
        return "sIm" + String.format(Locale.ROOT, "%020d", request.number());
    }

    @Override
    public Map<String, String> headers(boolean streamed) {
        return Map.of("Content-Type", streamed ? "text/event-stream" : GeminiErrors.JSON_UTF8);
    }

    @Override
    public List<String> start() {
        return List.of();
    }

    @Override
    public String text(String piece) {
        sentTokens += Tokens.count(piece);
        return data(response(piece, null, sentTokens));
    }

    @Override
    public List<String> end(String text, int outputTokens) {
        return List.of(data(response("", "STOP", outputTokens)));
    }

    @Override
    public List<String> refusalStart() {
        return List.of();
    }

    @Override
    public String refusalText() {
        return "";
    }

    @Override
    public String refusal(String piece) {
        return text(piece);
    }

    @Override
    public List<String> refusalEnd() {
        return List.of(data(refused()));
    }

    /** Google's error envelope as the stream's only chunk, as Gemini reports a failure in a 200. */
    @Override
    public List<String> overloaded() {
        ObjectNode root = mapper.createObjectNode();
        root.putObject("error")
                .put("code", 503)
                .put("message", "The model is overloaded. Please try again later.")
                .put("status", "UNAVAILABLE");
        return List.of(data(root));
    }

    @Override
    public String whole(String text, int outputTokens) {
        return response(text, "STOP", outputTokens).toString();
    }

    @Override
    public String wholeRefusal() {
        return refused().toString();
    }

    /** A response whose candidate carries {@code text}, then {@code finishReason} when there is one. */
    private ObjectNode response(String text, String finishReason, int outputTokens) {
        ObjectNode root = mapper.createObjectNode();
        ObjectNode candidate = root.putArray("candidates").addObject();
        ObjectNode content = candidate.putObject("content");
        content.putArray("parts").addObject().put("text", text);
        content.put("role", "model");
        if (finishReason != null) {
            candidate.put("finishReason", finishReason);
        }
        candidate.put("index", 0);
        return withUsage(root, outputTokens);
    }

    private ObjectNode refused() {
        ObjectNode root = mapper.createObjectNode();
        ObjectNode candidate = root.putArray("candidates").addObject().put("finishReason", "SAFETY");
        ArrayNode ratings = candidate.putArray("safetyRatings");
        for (String category : OTHER_CATEGORIES) {
            ratings.addObject().put("category", category).put("probability", "NEGLIGIBLE");
        }
        ratings.addObject()
                .put("category", BLOCKED_CATEGORY)
                .put("probability", "HIGH")
                .put("blocked", true);
        candidate.put("index", 0);
        return withUsage(root, 0);
    }

    /** Adds the usage (candidate tokens only when there are some, as proto3 JSON omits zeros) and the ids. */
    private ObjectNode withUsage(ObjectNode root, int outputTokens) {
        ObjectNode usage = root.putObject("usageMetadata").put("promptTokenCount", request.promptTokens());
        if (outputTokens > 0) {
            usage.put("candidatesTokenCount", outputTokens);
        }
        usage.put("totalTokenCount", request.promptTokens() + outputTokens);
        usage.putArray("promptTokensDetails")
                .addObject()
                .put("modality", "TEXT")
                .put("tokenCount", request.promptTokens());
        return root.put("modelVersion", request.model()).put("responseId", responseId());
    }

    private static String data(ObjectNode chunk) {
        return "data: " + chunk + "\r\n\r\n";
    }
}
