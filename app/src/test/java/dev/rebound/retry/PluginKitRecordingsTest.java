package dev.rebound.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.auth.Credential;
import dev.rebound.auth.Secret;
import dev.rebound.json.WireJson;
import dev.rebound.provider.HttpClients;
import dev.rebound.provider.StreamWatchdog;
import dev.rebound.provider.openai.OpenAiCompletionsProvider;
import dev.rebound.rpc.FrameWriter;
import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.Settings;
import dev.rebound.testing.MutableClock;
import dev.rebound.transcript.ModelRef;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Records the event sequences the plugin test kit ({@code plugins/plugin-test-support}, {@code SessionScript}) replays,
 * from the real session core: a real {@link ChatSession} and {@link RetryEngine}, the real OpenAI-compatible provider
 * against a loopback server answering 529 overloaded or a streamed reply, written as RPC frames. The recordings are
 * checked in; this test fails when the core's events differ from them, so plugins are never tested against fiction.
 * After a deliberate change of the events, regenerate them with {@code -Drebound.updateRecordings=true} and review
 * the diff.
 */
class PluginKitRecordingsTest {

    static final Path RECORDINGS = Path.of(
            "..",
            "plugins",
            "plugin-test-support",
            "src",
            "main",
            "resources",
            "dev",
            "rebound",
            "plugintest",
            "recordings");
    private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
    private static final ModelRef MODEL = new ModelRef("anthropic", "claude-sonnet-4-5");
    private static final String OVERLOADED_BODY =
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";

    /** A recording: how many calls fail with 529 before one answers (or none does), under which retry limit. */
    record Scenario(String name, int failures, int maxRetries) {
        boolean answers() {
            return failures <= maxRetries;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Scenario> scenarios() {
        return Stream.of(
                new Scenario("answered-at-once", 0, 10),
                new Scenario("overloaded-1-then-succeeds", 1, 10),
                new Scenario("overloaded-3-then-succeeds", 3, 10),
                new Scenario("overloaded-until-exhausted-1", 2, 1),
                new Scenario("overloaded-until-exhausted-2", 3, 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void theKitsRecordingIsWhatTheRealCoreEmits(Scenario scenario) throws Exception {
        String recorded = record(scenario);
        Path file = RECORDINGS.resolve(scenario.name() + ".jsonl");
        if (Boolean.getBoolean("rebound.updateRecordings")) {
            Files.createDirectories(RECORDINGS);
            Files.writeString(file, recorded);
        }
        assertThat(Files.exists(file))
                .as("recording %s (create it with -Drebound.updateRecordings=true)", file)
                .isTrue();
        assertThat(recorded)
                .as(
                        "the core's events differ from the kit's recording %s; if the change is meant, "
                                + "regenerate with -Drebound.updateRecordings=true and review the diff",
                        file)
                .isEqualTo(Files.readString(file));
    }

    private static String record(Scenario scenario) throws Exception {
        MutableClock clock = new MutableClock(START);
        ManualRetryTimer timer = new ManualRetryTimer(clock);
        ScheduledExecutorService scheduler = StreamWatchdog.newScheduler();
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        try (MockWebServer server = new MockWebServer()) {
            server.start();
            for (int i = 0; i < Math.min(scenario.failures(), scenario.maxRetries() + 1); i++) {
                server.enqueue(new MockResponse.Builder()
                        .code(529)
                        .addHeader("Content-Type", "application/json")
                        .body(OVERLOADED_BODY)
                        .build());
            }
            if (scenario.answers()) {
                server.enqueue(new MockResponse.Builder()
                        .addHeader("Content-Type", "text/event-stream")
                        .body(streamedAnswer("Wait longer after each failure."))
                        .build());
            }
            ProviderConfig provider = new ProviderConfig(
                    "anthropic",
                    ProviderApi.OPENAI_COMPLETIONS,
                    server.url("/v1").toString(),
                    List.of(new ModelConfig(MODEL.id(), null)));
            RetrySettings d = RetrySettings.DEFAULTS;
            RetrySettings retry = new RetrySettings(
                    true,
                    scenario.maxRetries(),
                    d.baseDelayMs(),
                    d.maxDelayMs(),
                    d.maxElapsedMs(),
                    d.modelFallback(),
                    d.fallbackChains(),
                    d.fallbackRevertPolicy(),
                    d.refusalPinMs());
            Settings settings =
                    new Settings(MODEL, Map.of(), Map.of("anthropic", provider), null, null).withRetry(retry);
            RetryEngine engine = RetryEngine.builder()
                    .settings(() -> retry)
                    .clock(clock)
                    .random(new EngineHarness.FixedRandom(0.5, 0))
                    .timer(timer)
                    .build();
            OpenAiCompletionsProvider openAi =
                    new OpenAiCompletionsProvider(HttpClients.newSharedClient(), clock, new StreamWatchdog(scheduler));
            AtomicInteger ids = new AtomicInteger();
            Credential work = new Credential("anthropic", "work", new Secret("sk-ant-test-0123456789abcdef"));
            FrameWriter writer = new FrameWriter(frames, new WireJson());
            try (ChatSession session = ChatSession.builder()
                    .sessionId("chat-1")
                    .settings(() -> settings)
                    .providers(api -> Optional.of(openAi))
                    .credentials(p -> Optional.of(work))
                    .retryEngine(engine)
                    .clock(clock)
                    .ids(() -> "id-" + ids.incrementAndGet())
                    .model(MODEL)
                    .build()) {
                session.subscribeScoped(writer::event);
                PromptResult.Accepted accepted =
                        (PromptResult.Accepted) session.prompt("Explain exponential backoff", null);
                accepted.completion().get(10, TimeUnit.SECONDS);
            }
        } finally {
            scheduler.shutdownNow();
        }
        return frames.toString(StandardCharsets.UTF_8);
    }

    private static String streamedAnswer(String text) {
        String chunk = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1764583200,"
                + "\"model\":\"claude-sonnet-4-5\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text
                + "\"},\"finish_reason\":null}]}";
        String finish = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1764583200,"
                + "\"model\":\"claude-sonnet-4-5\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}";
        String usage = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1764583200,"
                + "\"model\":\"claude-sonnet-4-5\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,"
                + "\"completion_tokens\":7,\"total_tokens\":19}}";
        return "data: " + chunk + "\n\ndata: " + finish + "\n\ndata: " + usage + "\n\ndata: [DONE]\n\n";
    }
}
