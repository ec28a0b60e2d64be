package dev.rebound.provider.anthropic;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.provider.ErrorBodies;
import dev.rebound.provider.OneShotJsonBody;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.ReplyBuilder;
import dev.rebound.provider.StreamParser;
import dev.rebound.provider.WireFormat;
import dev.rebound.settings.ProviderApi;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.UserMessage;
import java.util.List;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * Anthropic's Messages API: {@code POST {baseUrl}/v1/messages} with {@code stream: true} (a base URL that already ends
 * in {@code /v1} is taken as it is), the key as {@code x-api-key} and {@code anthropic-version: 2023-06-01}.
 *
 * <p>The body holds the conversation as alternating {@code user}/{@code assistant} messages of text blocks (assistant
 * messages without text are left out; the API joins consecutive turns of one role), {@code max_tokens}
 * ({@value #MAX_TOKENS}, lowered for a model that allows fewer: its 400 "max_tokens: 8192 > 4096, which is the maximum
 * allowed…" is read, the request goes again at once with the model's maximum, and that maximum is kept while Rebound
 * runs), and a {@code cache_control: ephemeral} mark on the last user message, so that the
 * conversation so far is cached for the next turn (prompt caching; a prefix below the model's minimum is simply not
 * cached). See {@link AnthropicStreamParser} for what is read.
 */
public final class AnthropicMessagesWire implements WireFormat {
    /** The API version every request names. */
    public static final String VERSION = "2023-06-01";
    /** The most output tokens a reply may ask for, unless the model allows fewer. */
    static final int MAX_TOKENS = 8192;
    /** Anthropic's 400 for an output limit above the model's: {@code max_tokens: 8192 > 4096, which is the maximum…}. */
    private static final java.util.regex.Pattern MAX_TOKENS_REFUSED =
            java.util.regex.Pattern.compile("max_tokens: (\\d+) > (\\d+)");

    /** Provider and model ({@code anthropic/claude-3-haiku-20240307}) to the most output tokens it allows. */
    private final java.util.Map<String, Integer> maxTokens = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public String api() {
        return ProviderApi.ANTHROPIC_MESSAGES.toString();
    }

    @Override
    public String exampleBaseUrl() {
        return "https://api.anthropic.com";
    }

    @Override
    public HttpUrl endpoint(HttpUrl baseUrl, ProviderRequest request) {
        List<String> segments =
                baseUrl.pathSegments().stream().filter(s -> !s.isEmpty()).toList();
        boolean versioned = !segments.isEmpty() && segments.getLast().equals("v1");
        return baseUrl.newBuilder()
                .addPathSegments(versioned ? "messages" : "v1/messages")
                .build();
    }

    @Override
    public void prepare(Request.Builder builder, ProviderRequest request, ObjectMapper mapper) {
        builder.post(new OneShotJsonBody(body(request, mapper, maxTokens.getOrDefault(modelKey(request), MAX_TOKENS))));
        builder.header("anthropic-version", VERSION);
        if (request.credential() != null) {
            builder.header("x-api-key", request.credential().secret().reveal());
        }
    }

    static String body(ProviderRequest request, ObjectMapper mapper, int maxOutputTokens) {
        ObjectNode root = mapper.createObjectNode();
        root.put("model", request.model().id());
        root.put("max_tokens", maxOutputTokens);
        root.put("stream", true);
        if (!request.systemPrompt().isEmpty()) {
            root.put("system", request.systemPrompt());
        }
        ArrayNode messages = root.putArray("messages");
        ObjectNode lastUser = null;
        for (ChatMessage message : request.context()) {
            String role;
            String text;
            switch (message) {
                case UserMessage user -> {
                    role = "user";
                    text = user.text();
                }
                case AssistantMessage assistant -> {
                    role = "assistant";
                    text = assistant.text();
                }
            }
            if (text == null || text.isEmpty()) {
                continue;
            }
            ObjectNode block = mapper.createObjectNode().put("type", "text").put("text", text);
            messages.addObject().put("role", role).putArray("content").add(block);
            if (role.equals("user")) {
                lastUser = block;
            }
        }
        if (lastUser != null) {
            lastUser.putObject("cache_control").put("type", "ephemeral");
        }
        return root.toString();
    }

    private static String modelKey(ProviderRequest request) {
        return request.provider().key() + "/" + request.model().id();
    }

    @Override
    public boolean adjustAfter(ProviderRequest request, AssistantMessage failed) {
        if (failed.failure() == null
                || !Integer.valueOf(400).equals(failed.failure().httpStatus())
                || failed.errorMessage() == null) {
            return false;
        }
        java.util.regex.Matcher refused = MAX_TOKENS_REFUSED.matcher(failed.errorMessage());
        if (!refused.find()) {
            return false;
        }
        int allowed;
        try {
            allowed = Integer.parseInt(refused.group(2));
        } catch (NumberFormatException e) {
            return false;
        }
        int asked = maxTokens.getOrDefault(modelKey(request), MAX_TOKENS);
        if (allowed <= 0 || allowed >= asked) {
            return false;
        }
        maxTokens.put(modelKey(request), allowed);
        return true;
    }

    @Override
    public StreamParser newParser(
            ProviderRequest request, ReplyBuilder reply, ObjectMapper mapper, ErrorBodies errors) {
        return new AnthropicStreamParser(mapper, errors, reply);
    }
}
