package dev.rebound.provider;

import dev.rebound.auth.Credential;
import dev.rebound.auth.Secret;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.TimeoutSettings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.UserMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * A {@link MockWebServer} on loopback and a {@link StreamingProvider} of one wire format pointed at it, with the
 * recorded provider fixtures under {@code src/test/resources/fixtures/} (their sources are in each folder's
 * {@code SOURCES.md}). Close it after each test.
 */
public final class WireFixture implements AutoCloseable {
    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
    public static final TimeoutSettings QUICK = new TimeoutSettings(1_000, 1_500, 1_500);

    public final MockWebServer server = new MockWebServer();
    private final ScheduledExecutorService scheduler = StreamWatchdog.newScheduler();
    private final ProviderApi api;
    private final String key;
    public final StreamingProvider provider;

    /**
     * @param wire the wire format under test
     * @param api the api of the provider configuration
     * @param key the key of the credential the requests carry
     * @param environment where extra headers named by an environment variable are read
     */
    public WireFixture(WireFormat wire, ProviderApi api, String key, Map<String, String> environment) {
        this.api = api;
        this.key = key;
        this.provider = new StreamingProvider(
                wire, SharedHttpClients.create(), CLOCK, new StreamWatchdog(scheduler), environment);
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base URL of the mock server, as settings would hold it ({@code path} appended, e.g. {@code /v1}). */
    public String baseUrl(String path) {
        return server.url(path).toString();
    }

    /** The configuration of a provider {@code p} of this fixture's api at {@code baseUrl}. */
    public ProviderConfig config(String baseUrl, String model) {
        return new ProviderConfig("p", api, baseUrl, List.of(new ModelConfig(model, null)));
    }

    /** A request for {@code model} with one user message, carrying the fixture's key. */
    public ProviderRequest request(ProviderConfig config, String model) {
        return request(config, model, List.of(new UserMessage("u1", "Say hello", 1)));
    }

    public ProviderRequest request(ProviderConfig config, String model, List<ChatMessage> context) {
        return new ProviderRequest(
                "a1",
                config,
                new ModelRef(config.key(), model),
                context,
                new Credential(config.key(), "work", new Secret(key)),
                QUICK);
    }

    /** Streams a request and records the deltas. */
    public Result stream(ProviderRequest request) {
        return stream(request, new CallControl());
    }

    public Result stream(ProviderRequest request, CallControl control) {
        Recorder recorder = new Recorder();
        AssistantMessage message = provider.stream(request, recorder, control);
        return new Result(message, recorder);
    }

    public void enqueue(MockResponse response) {
        server.enqueue(response);
    }

    /** The next request the server received. */
    public RecordedRequest takeRequest() {
        try {
            return server.takeRequest();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A recorded fixture's text ({@code anthropic/stream-text.sse}). */
    public static String fixture(String path) {
        try (InputStream in = WireFixture.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A 200 event stream with this body. */
    public static MockResponse eventStream(String body) {
        return new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream; charset=utf-8")
                .body(body)
                .build();
    }

    /** A JSON error response with this status and body. */
    public static MockResponse error(int status, String body) {
        return new MockResponse.Builder()
                .code(status)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }

    /**
     * A response with the headers of a recorded {@code headers-*.txt} fixture ({@code Name: value} lines), except the
     * framing ones MockWebServer sets itself.
     */
    public static MockResponse.Builder withHeaders(MockResponse.Builder builder, String headersFixture) {
        for (String line : fixture(headersFixture).split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = line.substring(0, colon).strip();
            String lower = name.toLowerCase(java.util.Locale.ROOT);
            if (lower.equals("content-length") || lower.equals("connection") || lower.equals("transfer-encoding")) {
                continue;
            }
            builder.addHeader(name, line.substring(colon + 1).strip());
        }
        return builder;
    }

    @Override
    public void close() {
        server.close();
        scheduler.shutdownNow();
    }

    /** What a call returned, and what its listener received. */
    public record Result(AssistantMessage message, Recorder recorder) {}

    /** Records deltas in order. */
    public static final class Recorder implements StreamListener {
        public final List<String> events = new ArrayList<>();

        @Override
        public void onTextDelta(String delta) {
            events.add("text:" + delta);
        }

        @Override
        public void onThinkingDelta(String delta) {
            events.add("thinking:" + delta);
        }

        /** The text deltas joined. */
        public String text() {
            StringBuilder sb = new StringBuilder();
            events.stream().filter(e -> e.startsWith("text:")).forEach(e -> sb.append(e.substring(5)));
            return sb.toString();
        }
    }
}
