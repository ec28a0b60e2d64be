package dev.rebound.provider.openai;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.provider.ErrorBodies;
import dev.rebound.provider.OneShotJsonBody;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.ReplyBuilder;
import dev.rebound.provider.ServerConversation;
import dev.rebound.provider.StreamParser;
import dev.rebound.provider.WireFormat;
import dev.rebound.settings.ProviderApi;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.UserMessage;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * OpenAI's Responses API: {@code POST {baseUrl}/responses} with {@code stream: true}, the key as
 * {@code Authorization: Bearer …}.
 *
 * <p><b>Chaining.</b> With {@code store} on (the provider's setting, on by default) the server keeps each reply, and
 * the next turn names the last one as {@code previous_response_id} and sends only the messages after it. The ids live
 * in the session's {@link ServerConversation}; when the server no longer knows one ("Previous response … not found",
 * an expired or zero-data-retention response: a stale replay), the session forgets them and the retry sends the whole
 * conversation at once (§3 step 5 of the retry policy). With {@code store} off, every request carries the whole
 * conversation and nothing is kept on the server.
 *
 * <p>Reasoning models ({@code o1}, {@code o3}, {@code o4-mini}, {@code gpt-5}…, {@code codex}) are asked for a
 * reasoning summary ({@code reasoning.summary: auto}), which streams as thinking; other models reject the parameter,
 * so it is not sent to them. An organisation that is not verified gets a 400 for it ("Your organization must be
 * verified to generate reasoning summaries"): then the request goes again at once without it, and that provider and
 * model are not asked for summaries again while Rebound runs ({@link #adjustAfter}). See {@link ResponsesStreamParser}
 * for what is read.
 */
public final class ResponsesWire implements WireFormat {
    private static final Pattern REASONING_MODEL = Pattern.compile("(?i)(.*/)?(o\\d.*|gpt-5.*|.*codex.*|gpt-oss.*)");
    /** A 400 about the reasoning summary itself. */
    private static final Pattern SUMMARY_REFUSED =
            Pattern.compile("(?i)reasoning[._ ]?summar|summar(?:y|ies)\\b.{0,80}\\b(?:verif|not supported|unsupported)"
                    + "|verified to generate reasoning");

    /** Provider and model ({@code openai/o3}) that refused a reasoning summary. */
    private final java.util.Set<String> noSummary = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public String api() {
        return ProviderApi.OPENAI_RESPONSES.toString();
    }

    @Override
    public String exampleBaseUrl() {
        return "https://api.openai.com/v1";
    }

    @Override
    public HttpUrl endpoint(HttpUrl baseUrl, ProviderRequest request) {
        return baseUrl.newBuilder().addPathSegments("responses").build();
    }

    @Override
    public void prepare(Request.Builder builder, ProviderRequest request, ObjectMapper mapper) {
        builder.post(new OneShotJsonBody(body(request, mapper, asksSummary(request))));
        if (request.credential() != null) {
            builder.header(
                    "Authorization", "Bearer " + request.credential().secret().reveal());
        }
    }

    static String body(ProviderRequest request, ObjectMapper mapper, boolean summary) {
        ObjectNode root = mapper.createObjectNode();
        root.put("model", request.model().id());
        root.put("stream", true);
        boolean store = request.provider().store();
        root.put("store", store);
        List<ChatMessage> context = request.context();
        int from = 0;
        Optional<Chained> chained = store ? chained(request) : Optional.empty();
        if (chained.isPresent()) {
            root.put("previous_response_id", chained.get().responseId());
            from = chained.get().index() + 1;
        }
        if (!request.systemPrompt().isEmpty()) {
            // Instructions are not carried over by previous_response_id: every request sends them.
            root.put("instructions", request.systemPrompt());
        }
        if (summary) {
            root.putObject("reasoning").put("summary", "auto");
        }
        ArrayNode input = root.putArray("input");
        for (ChatMessage message : context.subList(from, context.size())) {
            switch (message) {
                case UserMessage user -> item(input, "user", "input_text", user.text());
                case AssistantMessage assistant -> item(input, "assistant", "output_text", assistant.text());
            }
        }
        return root.toString();
    }

    private static void item(ArrayNode input, String role, String contentType, String text) {
        if (text == null || text.isEmpty()) {
            return;
        }
        ObjectNode item = input.addObject().put("type", "message").put("role", role);
        item.putArray("content").addObject().put("type", contentType).put("text", text);
    }

    /** The last reply of the context, when the server stored it and nothing but user messages follow it. */
    private record Chained(int index, String responseId) {}

    private static Optional<Chained> chained(ProviderRequest request) {
        ServerConversation conversation = request.conversation();
        if (conversation == null) {
            return Optional.empty();
        }
        List<ChatMessage> context = request.context();
        for (int i = context.size() - 1; i >= 0; i--) {
            if (context.get(i) instanceof AssistantMessage assistant) {
                int index = i;
                return conversation
                        .responseIdOf(assistant.id(), request.provider().key())
                        .map(id -> new Chained(index, id));
            }
        }
        return Optional.empty();
    }

    @Override
    public StreamParser newParser(
            ProviderRequest request, ReplyBuilder reply, ObjectMapper mapper, ErrorBodies errors) {
        return new ResponsesStreamParser(mapper, errors, reply);
    }

    private boolean asksSummary(ProviderRequest request) {
        return REASONING_MODEL.matcher(request.model().id()).matches() && !noSummary.contains(modelKey(request));
    }

    private static String modelKey(ProviderRequest request) {
        return request.provider().key() + "/" + request.model().id();
    }

    @Override
    public boolean adjustAfter(ProviderRequest request, AssistantMessage failed) {
        boolean refusedSummary = failed.failure() != null
                && Integer.valueOf(400).equals(failed.failure().httpStatus())
                && failed.errorMessage() != null
                && SUMMARY_REFUSED.matcher(failed.errorMessage()).find();
        return refusedSummary && asksSummary(request) && noSummary.add(modelKey(request));
    }

    @Override
    public void completed(ProviderRequest request, StreamParser parser) {
        String responseId = ((ResponsesStreamParser) parser).responseId();
        if (request.conversation() != null && request.provider().store() && responseId != null) {
            request.conversation()
                    .remember(request.messageId(), request.provider().key(), responseId);
        }
    }
}
