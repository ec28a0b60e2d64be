package dev.rebound.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.auth.CredentialPool;
import dev.rebound.auth.CredentialStore;
import dev.rebound.auth.SessionCredentials;
import dev.rebound.expiry.ExpiryStore;
import dev.rebound.fallback.ChainFallback;
import dev.rebound.fallback.FallbackChains;
import dev.rebound.fallback.ModelCooldowns;
import dev.rebound.json.WireJson;
import dev.rebound.provider.HttpClients;
import dev.rebound.provider.StreamWatchdog;
import dev.rebound.provider.openai.OpenAiCompletionsProvider;
import dev.rebound.rpc.FrameWriter;
import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.session.SessionModel;
import dev.rebound.settings.ConfigDirectory;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.io.TempDir;
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
    private static final ModelRef FALLBACK = new ModelRef("openai", "gpt-5");
    private static final String OVERLOADED_BODY =
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";

    /**
     * A recording: the server's answers in order (529 overloaded, a usage limit, a streamed answer), the retry limit,
     * and whether the default fallback chain ({@code openai/gpt-5}) is set.
     */
    record Scenario(String name, int maxRetries, boolean fallback, List<String> answers) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String OVERLOADED = "529";
    private static final String USAGE_LIMIT = "429";
    private static final String ANSWER = "200";

    static Stream<Scenario> scenarios() {
        return Stream.of(
                new Scenario("answered-at-once", 10, false, List.of(ANSWER)),
                new Scenario("overloaded-1-then-succeeds", 10, false, List.of(OVERLOADED, ANSWER)),
                new Scenario(
                        "overloaded-3-then-succeeds", 10, false, List.of(OVERLOADED, OVERLOADED, OVERLOADED, ANSWER)),
                new Scenario("overloaded-until-exhausted-1", 1, false, List.of(OVERLOADED, OVERLOADED)),
                new Scenario("overloaded-until-exhausted-2", 2, false, List.of(OVERLOADED, OVERLOADED, OVERLOADED)),
                new Scenario("usage-limit-switches-key", 10, false, List.of(USAGE_LIMIT, ANSWER)),
                new Scenario("overloaded-falls-back", 10, true, List.of(OVERLOADED, ANSWER)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void theKitsRecordingIsWhatTheRealCoreEmits(Scenario scenario, @TempDir Path dir) throws Exception {
        String recorded = record(scenario, dir);
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

    /** Runs the scenario's turn on the app's real wiring: credential pool, usage limits, fallback, cooldowns. */
    private static String record(Scenario scenario, Path dir) throws Exception {
        MutableClock clock = new MutableClock(START);
        ManualRetryTimer timer = new ManualRetryTimer(clock);
        ScheduledExecutorService scheduler = StreamWatchdog.newScheduler();
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        try (MockWebServer server = new MockWebServer()) {
            server.start();
            for (String answer : scenario.answers()) {
                server.enqueue(response(answer));
            }
            Map<String, ProviderConfig> providers = new LinkedHashMap<>();
            providers.put(
                    "anthropic",
                    new ProviderConfig(
                            "anthropic",
                            ProviderApi.OPENAI_COMPLETIONS,
                            server.url("/v1").toString(),
                            List.of(new ModelConfig(MODEL.id(), null))));
            providers.put(
                    "openai",
                    new ProviderConfig(
                            "openai",
                            ProviderApi.OPENAI_COMPLETIONS,
                            server.url("/v1").toString(),
                            List.of(new ModelConfig(FALLBACK.id(), null))));
            RetrySettings d = RetrySettings.DEFAULTS;
            RetrySettings retry = new RetrySettings(
                    true,
                    scenario.maxRetries(),
                    d.baseDelayMs(),
                    d.maxDelayMs(),
                    d.maxElapsedMs(),
                    scenario.fallback(),
                    scenario.fallback() ? Map.of("default", List.of(FALLBACK.selector())) : Map.of(),
                    d.fallbackRevertPolicy(),
                    d.refusalPinMs());
            Settings settings = new Settings(MODEL, Map.of(), providers, retry, null);
            Files.writeString(dir.resolve("credentials.json"), """
                    { "anthropic": [ { "label": "work", "apiKey": "sk-ant-test-0123456789abcdef" },
                                     { "label": "personal", "apiKey": "sk-ant-test-fedcba9876543210" } ] }
                    """);
            CredentialPool pool = new CredentialPool(
                    CredentialStore.open(ConfigDirectory.at(dir), Map.of(), clock),
                    ExpiryStore.open(dir.resolve("state/credential-blocks.json"), clock));
            SessionCredentials credentials = new SessionCredentials(pool);
            SessionModel model = new SessionModel(MODEL);
            EngineHarness.FixedRandom random = new EngineHarness.FixedRandom(0.5, 0);
            RetryEngine engine = RetryEngine.builder()
                    .settings(() -> retry)
                    .clock(clock)
                    .random(random)
                    .timer(timer)
                    .usageLimits(new CredentialUsageLimits(pool, credentials, clock, random))
                    .fallback(new ChainFallback(
                            () -> settings,
                            model,
                            new ModelCooldowns(ExpiryStore.open(dir.resolve("state/model-cooldowns.json"), clock)),
                            clock,
                            random,
                            FallbackChains.DEFAULT,
                            m -> !pool.allBlocked(m.provider())))
                    .build();
            OpenAiCompletionsProvider openAi =
                    new OpenAiCompletionsProvider(HttpClients.newSharedClient(), clock, new StreamWatchdog(scheduler));
            AtomicInteger ids = new AtomicInteger();
            FrameWriter writer = new FrameWriter(frames, new WireJson());
            try (ChatSession session = ChatSession.builder()
                    .sessionId("chat-1")
                    .settings(() -> settings)
                    .providers(api -> Optional.of(openAi))
                    .credentials(credentials)
                    .retryEngine(engine)
                    .clock(clock)
                    .ids(() -> "id-" + ids.incrementAndGet())
                    .sessionModel(model)
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

    private static MockResponse response(String answer) {
        return switch (answer) {
            case OVERLOADED ->
                new MockResponse.Builder()
                        .code(529)
                        .addHeader("Content-Type", "application/json")
                        .body(OVERLOADED_BODY)
                        .build();
            // The ChatGPT backend's (Codex) plan limit, as in the error corpus (codex2api issue 9).
            case USAGE_LIMIT ->
                new MockResponse.Builder()
                        .code(429)
                        .addHeader("Content-Type", "application/json")
                        .addHeader("retry-after", "1800")
                        .body("{\"error\":{\"type\":\"usage_limit_reached\",\"message\":\"The usage limit has "
                                + "been reached\",\"plan_type\":\"plus\",\"resets_in_seconds\":1800}}")
                        .build();
            default ->
                new MockResponse.Builder()
                        .addHeader("Content-Type", "text/event-stream")
                        .body(streamedAnswer("Wait longer after each failure."))
                        .build();
        };
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
