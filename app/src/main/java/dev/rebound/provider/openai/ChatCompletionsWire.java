package dev.rebound.provider.openai;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.provider.ErrorBodies;
import dev.rebound.provider.OneShotJsonBody;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.ReplyBuilder;
import dev.rebound.provider.StreamParser;
import dev.rebound.provider.WireFormat;
import dev.rebound.settings.ProviderApi;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * OpenAI Chat Completions: {@code POST {baseUrl}/chat/completions} with {@code stream: true}, the key as
 * {@code Authorization: Bearer …} when there is one. See {@link ChatCompletionsStreamParser} for what is read.
 */
public final class ChatCompletionsWire implements WireFormat {

    @Override
    public String api() {
        return ProviderApi.OPENAI_COMPLETIONS.toString();
    }

    @Override
    public String exampleBaseUrl() {
        return "https://api.openai.com/v1";
    }

    @Override
    public HttpUrl endpoint(HttpUrl baseUrl, ProviderRequest request) {
        return baseUrl.newBuilder().addPathSegments("chat/completions").build();
    }

    @Override
    public void prepare(Request.Builder builder, ProviderRequest request, ObjectMapper mapper) {
        String json = ChatCompletionsRequestBody.of(request.model().id(), request.systemPrompt(), request.context())
                .toJson(mapper);
        builder.post(new OneShotJsonBody(json));
        if (request.credential() != null) {
            builder.header(
                    "Authorization", "Bearer " + request.credential().secret().reveal());
        }
    }

    @Override
    public StreamParser newParser(
            ProviderRequest request, ReplyBuilder reply, ObjectMapper mapper, ErrorBodies errors) {
        return new ChatCompletionsStreamParser(mapper, errors, reply);
    }
}
