package dev.rebound.provider.gemini;

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
import java.util.regex.Pattern;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * Google's Gemini API: {@code POST {baseUrl}/v1beta/models/{model}:streamGenerateContent?alt=sse} (a base URL that
 * already ends in a version such as {@code /v1beta} is taken as it is), the key as {@code x-goog-api-key}, never in
 * the URL.
 *
 * <p>The body holds the conversation as {@code contents} of role {@code user} or {@code model}, each one text part.
 * Thinking models ({@code gemini-2.5-…}, {@code gemini-3…}) are asked to include their thought summaries
 * ({@code thinkingConfig.includeThoughts}), which stream as thinking; older models reject the option, so it is not
 * sent to them. See {@link GeminiStreamParser} for what is read.
 */
public final class GeminiWire implements WireFormat {
    private static final Pattern THINKING_MODEL = Pattern.compile("(?i)(models/)?gemini-(2\\.5|[3-9]).*");
    private static final Pattern VERSION = Pattern.compile("v\\d+(alpha|beta)?\\d*");

    @Override
    public String api() {
        return ProviderApi.GOOGLE_GEMINI.toString();
    }

    @Override
    public String exampleBaseUrl() {
        return "https://generativelanguage.googleapis.com";
    }

    @Override
    public HttpUrl endpoint(HttpUrl baseUrl, ProviderRequest request) {
        List<String> segments = baseUrl.pathSegments();
        HttpUrl.Builder url = baseUrl.newBuilder();
        if (!segments.isEmpty() && segments.getLast().isEmpty()) {
            url.removePathSegment(segments.size() - 1);
            segments = segments.subList(0, segments.size() - 1);
        }
        boolean versioned =
                !segments.isEmpty() && VERSION.matcher(segments.getLast()).matches();
        String model = request.model().id();
        if (model.startsWith("models/")) {
            model = model.substring("models/".length());
        }
        if (!versioned) {
            url.addPathSegment("v1beta");
        }
        return url.addPathSegment("models")
                .addPathSegment(model + ":streamGenerateContent")
                .setQueryParameter("alt", "sse")
                .build();
    }

    @Override
    public void prepare(Request.Builder builder, ProviderRequest request, ObjectMapper mapper) {
        builder.post(new OneShotJsonBody(body(request, mapper)));
        if (request.credential() != null) {
            builder.header("x-goog-api-key", request.credential().secret().reveal());
        }
    }

    static String body(ProviderRequest request, ObjectMapper mapper) {
        ObjectNode root = mapper.createObjectNode();
        if (!request.systemPrompt().isEmpty()) {
            root.putObject("systemInstruction").putArray("parts").addObject().put("text", request.systemPrompt());
        }
        ArrayNode contents = root.putArray("contents");
        for (ChatMessage message : request.context()) {
            String role;
            String text;
            switch (message) {
                case UserMessage user -> {
                    role = "user";
                    text = user.text();
                }
                case AssistantMessage assistant -> {
                    role = "model";
                    text = assistant.text();
                }
            }
            if (text != null && !text.isEmpty()) {
                contents.addObject()
                        .put("role", role)
                        .putArray("parts")
                        .addObject()
                        .put("text", text);
            }
        }
        if (THINKING_MODEL.matcher(request.model().id()).matches()) {
            root.putObject("generationConfig").putObject("thinkingConfig").put("includeThoughts", true);
        }
        return root.toString();
    }

    @Override
    public StreamParser newParser(
            ProviderRequest request, ReplyBuilder reply, ObjectMapper mapper, ErrorBodies errors) {
        return new GeminiStreamParser(mapper, errors, reply);
    }
}
