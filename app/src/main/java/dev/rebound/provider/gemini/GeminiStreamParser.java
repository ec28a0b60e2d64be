package dev.rebound.provider.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.provider.ErrorBodies;
import dev.rebound.provider.ErrorBody;
import dev.rebound.provider.EventJson;
import dev.rebound.provider.JsonStreamParser;
import dev.rebound.provider.ReplyBuilder;
import dev.rebound.provider.StreamEnding;
import dev.rebound.provider.StreamProblem;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import java.util.Set;

/**
 * Reads a Gemini {@code streamGenerateContent} stream (one {@code GenerateContentResponse} per event, no terminal
 * marker) into a {@link ReplyBuilder}.
 *
 * <p>Parts of {@code candidates[0].content} are text, or thinking when marked {@code thought: true} (signatures are not
 * kept). The stream has ended once a candidate carries a {@code finishReason}, or the prompt was blocked
 * ({@code promptFeedback.blockReason}, no candidates); one that stops before is truncated. {@code usageMetadata} is a
 * running total: the last one counts (thought tokens are output). An {@code error} object in the stream is a
 * {@link FailureKind#STREAM_ERROR}, its {@code RetryInfo} delay and {@code QuotaFailure} quotas kept.
 *
 * <p>Finish reasons: {@code STOP} → stop; {@code MAX_TOKENS} → length; a safety or recitation block ({@code SAFETY},
 * {@code RECITATION}, {@code PROHIBITED_CONTENT}, {@code BLOCKLIST}, {@code SPII}, {@code IMAGE_*}) and a blocked
 * prompt → stop details {@code refusal}; {@code MALFORMED_FUNCTION_CALL}, {@code LANGUAGE}, {@code OTHER} and unknown
 * values → a stream error naming the reason.
 */
final class GeminiStreamParser extends JsonStreamParser {
    private static final Set<String> REFUSALS = Set.of(
            "SAFETY",
            "RECITATION",
            "PROHIBITED_CONTENT",
            "BLOCKLIST",
            "SPII",
            "IMAGE_SAFETY",
            "IMAGE_PROHIBITED_CONTENT",
            "IMAGE_RECITATION");

    private String finishReason;
    private String blockReason;
    private String blockedCategories;

    GeminiStreamParser(ObjectMapper mapper, ErrorBodies errorBodies, ReplyBuilder reply) {
        super(mapper, errorBodies, reply);
    }

    @Override
    protected boolean onJson(String type, JsonNode chunk) {
        if (chunk.has("error") && !chunk.get("error").isNull()) {
            ErrorBody error = errorBodies.fromJson(chunk);
            String said = error.message() != null ? error.message() : EventJson.quote(chunk.toString());
            problem = new StreamProblem(
                    FailureKind.STREAM_ERROR,
                    "The provider reported an error mid-stream: " + said + error.qualifiers(),
                    error);
            return true;
        }
        readChunk(chunk);
        return ended();
    }

    private void readChunk(JsonNode chunk) {
        JsonNode usage = chunk.get("usageMetadata");
        if (usage != null && usage.isObject()) {
            long cached = usage.path("cachedContentTokenCount").asLong(0);
            long prompt = usage.path("promptTokenCount").asLong(0);
            long output = usage.path("candidatesTokenCount").asLong(0)
                    + usage.path("thoughtsTokenCount").asLong(0);
            reply.usage(new Usage(Math.max(0, prompt - cached), output, cached, 0));
        }
        String blocked = EventJson.text(chunk.path("promptFeedback").get("blockReason"));
        if (blocked != null) {
            blockReason = blocked;
        }
        JsonNode candidates = chunk.get("candidates");
        if (candidates == null || !candidates.isArray() || candidates.isEmpty()) {
            return;
        }
        JsonNode candidate = candidates.get(0);
        for (JsonNode part : candidate.path("content").path("parts")) {
            String text = EventJson.text(part.get("text"));
            if (part.path("thought").asBoolean(false)) {
                reply.appendThinking(text);
            } else {
                reply.appendText(text);
            }
        }
        String finish = EventJson.text(candidate.get("finishReason"));
        if (finish != null && !finish.equals("FINISH_REASON_UNSPECIFIED")) {
            finishReason = finish;
            blockedCategories = blockedCategories(candidate.path("safetyRatings"));
        }
    }

    private static String blockedCategories(JsonNode ratings) {
        StringBuilder categories = new StringBuilder();
        for (JsonNode rating : ratings) {
            if (rating.path("blocked").asBoolean(false)) {
                if (!categories.isEmpty()) {
                    categories.append(", ");
                }
                categories.append(rating.path("category").asText("?"));
            }
        }
        return categories.isEmpty() ? null : categories.toString();
    }

    @Override
    public boolean onCompleteResponse(String body) {
        JsonNode root = EventJson.objectOrNull(mapper, body);
        if (root == null) {
            return false;
        }
        if (root.has("error")) {
            return onEvent(null, body);
        }
        if (!root.has("candidates") && !root.has("promptFeedback")) {
            return false;
        }
        readChunk(root);
        if (!ended()) {
            finishReason = "STOP";
        }
        return true;
    }

    @Override
    public boolean ended() {
        return finishReason != null || blockReason != null;
    }

    @Override
    public String missingEnd() {
        return "no finishReason received";
    }

    @Override
    public StreamEnding ending() {
        if (finishReason == null) {
            String explanation = "promptFeedback.blockReason: " + blockReason;
            return new StreamEnding.Stopped(
                    "The provider blocked the prompt (" + explanation + ")",
                    new StopDetails(StopDetails.REFUSAL, explanation));
        }
        if (REFUSALS.contains(finishReason)) {
            String explanation =
                    "finishReason: " + finishReason + (blockedCategories == null ? "" : " (" + blockedCategories + ")");
            return new StreamEnding.Stopped(
                    "The provider's safety filter stopped the reply after " + reply.characters() + " characters ("
                            + explanation + ")",
                    new StopDetails(StopDetails.REFUSAL, explanation));
        }
        return switch (finishReason) {
            case "STOP" -> new StreamEnding.Complete(StopReason.STOP);
            case "MAX_TOKENS" -> new StreamEnding.Complete(StopReason.LENGTH);
            default ->
                new StreamEnding.Failed(new StreamProblem(
                        FailureKind.STREAM_ERROR,
                        "The provider ended the reply with finishReason " + finishReason + " after "
                                + reply.characters() + " characters",
                        new ErrorBody(null, null, finishReason, null)));
        };
    }
}
