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
 * ({@value #MAX_TOKENS}), and a {@code cache_control: ephemeral} mark on the last user message, so that the
 * conversation so far is cached for the next turn (prompt caching; a prefix below the model's minimum is simply not
 * cached). See {@link AnthropicStreamParser} for what is read.
 */
public final class AnthropicMessagesWire implements WireFormat {
    /** The API version every request names. */
    public static final String VERSION = "2023-06-01";
    /** The most output tokens a reply may have: what every current Claude model accepts. */
    static final int MAX_TOKENS = 8192;

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
        builder.post(new OneShotJsonBody(body(request, mapper)));
        builder.header("anthropic-version", VERSION);
        if (request.credential() != null) {
            builder.header("x-api-key", request.credential().secret().reveal());
        }
    }

    static String body(ProviderRequest request, ObjectMapper mapper) {
        ObjectNode root = mapper.createObjectNode();
        root.put("model", request.model().id());
        root.put("max_tokens", MAX_TOKENS);
        root.put("stream", true);
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

    @Override
    public StreamParser newParser(
            ProviderRequest request, ReplyBuilder reply, ObjectMapper mapper, ErrorBodies errors) {
        return new AnthropicStreamParser(mapper, errors, reply);
    }
}
