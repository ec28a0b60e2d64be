package dev.rebound.provider.openai;

import dev.rebound.auth.Credential;
import dev.rebound.auth.Secret;
import dev.rebound.provider.CallControl;
import dev.rebound.provider.HttpClients;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.StreamListener;
import dev.rebound.provider.StreamWatchdog;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.TimeoutSettings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.UserMessage;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;

/**
 * A {@link MockWebServer} on loopback and an {@link OpenAiCompletionsProvider} pointed at it, with builders for requests,
 * chunks and event streams. Close it after each test.
 */
final class CompletionsFixture implements AutoCloseable {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
    static final String KEY = "sk-test-0123456789abcdefghij";
    static final TimeoutSettings QUICK = new TimeoutSettings(1_000, 1_500, 1_500);

    final MockWebServer server = new MockWebServer();
    final ScheduledExecutorService scheduler = StreamWatchdog.newScheduler();
    final OpenAiCompletionsProvider provider =
            new OpenAiCompletionsProvider(HttpClients.newSharedClient(), CLOCK, new StreamWatchdog(scheduler));

    CompletionsFixture() throws IOException {
        server.start();
    }

    /** The base URL of the mock server's API, as settings would hold it. */
    String baseUrl() {
        return server.url("/v1").toString();
    }

    static Credential credential(String key) {
        return new Credential("openai", "work", new Secret(key));
    }

    ProviderRequest request() {
        return request(baseUrl(), credential(KEY), QUICK);
    }

    ProviderRequest request(String baseUrl, Credential credential, TimeoutSettings timeouts) {
        return request(baseUrl, credential, timeouts, List.of(new UserMessage("u1", "Say hello", 1)));
    }

    static ProviderRequest request(
            String baseUrl, Credential credential, TimeoutSettings timeouts, List<ChatMessage> context) {
        ProviderConfig provider = new ProviderConfig(
                "openai", ProviderApi.OPENAI_COMPLETIONS, baseUrl, List.of(new ModelConfig("gpt-4.1-mini", null)));
        return new ProviderRequest(
                "a1", provider, new ModelRef("openai", "gpt-4.1-mini"), context, credential, timeouts);
    }

    /** Streams {@link #request()} and records the deltas. */
    Result stream() {
        return stream(request(), new CallControl());
    }

    Result stream(ProviderRequest request, CallControl control) {
        Recorder recorder = new Recorder();
        AssistantMessage message = provider.stream(request, recorder, control);
        return new Result(message, recorder);
    }

    void enqueue(MockResponse response) {
        server.enqueue(response);
    }

    /** A 200 event stream with these {@code data:} payloads, one event each. */
    static MockResponse eventStream(String... payloads) {
        return new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream; charset=utf-8")
                .addHeader("x-request-id", "req_stream")
                .body(sse(payloads))
                .build();
    }

    static String sse(String... payloads) {
        StringBuilder body = new StringBuilder();
        for (String payload : payloads) {
            body.append("data: ").append(payload).append("\n\n");
        }
        return body.toString();
    }

    /** A chunk whose first choice has this delta (a JSON object) and no finish_reason. */
    static String delta(String deltaJson) {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1764583200,"
                + "\"model\":\"gpt-4.1-mini\",\"choices\":[{\"index\":0,\"delta\":" + deltaJson
                + ",\"logprobs\":null,\"finish_reason\":null}]}";
    }

    /** A chunk carrying a piece of answer text. */
    static String text(String text) {
        return delta("{\"content\":\"" + text + "\"}");
    }

    /** The chunk that ends the choice with this finish_reason. */
    static String finish(String reason) {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1764583200,"
                + "\"model\":\"gpt-4.1-mini\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,"
                + "\"finish_reason\":\"" + reason + "\"}]}";
    }

    /** The last chunk of a stream with {@code include_usage}: no choices, only usage. */
    static String usage(int prompt, int completion, int cached) {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1764583200,"
                + "\"model\":\"gpt-4.1-mini\",\"choices\":[],\"usage\":{\"prompt_tokens\":" + prompt
                + ",\"completion_tokens\":" + completion + ",\"total_tokens\":" + (prompt + completion)
                + ",\"prompt_tokens_details\":{\"cached_tokens\":" + cached + ",\"audio_tokens\":0}}}";
    }

    @Override
    public void close() {
        server.close();
        scheduler.shutdownNow();
    }

    /** What a call returned, and what its listener received. */
    record Result(AssistantMessage message, Recorder recorder) {}

    /** Records deltas in order, with the thread each arrived on. */
    static final class Recorder implements StreamListener {
        final List<String> events = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();

        @Override
        public void onTextDelta(String delta) {
            events.add("text:" + delta);
            threads.add(Thread.currentThread());
        }

        @Override
        public void onThinkingDelta(String delta) {
            events.add("thinking:" + delta);
            threads.add(Thread.currentThread());
        }
    }
}
