package dev.rebound.retry;

import dev.rebound.auth.CredentialPool;
import dev.rebound.auth.CredentialStore;
import dev.rebound.auth.SessionCredentials;
import dev.rebound.event.SessionEvent;
import dev.rebound.expiry.ExpiryStore;
import dev.rebound.expiry.SlowDisk;
import dev.rebound.fallback.ChainFallback;
import dev.rebound.fallback.FallbackChains;
import dev.rebound.fallback.ModelCooldowns;
import dev.rebound.provider.ChatProvider;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.session.SessionModel;
import dev.rebound.session.TurnOutcome;
import dev.rebound.settings.ConfigDirectory;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.Settings;
import dev.rebound.testing.MutableClock;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.ModelRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A real session and retry engine with the app's credential pool and model fallback, over state files in a temporary
 * directory: providers anthropic (two keys, a and b), openai and ollama; primary anthropic/claude-sonnet-4-5 with the
 * chain {@code default: [openai/gpt-4.1-mini, ollama/llama3.2]}.
 */
final class PoolHarness implements AutoCloseable {
    static final ModelRef CLAUDE = new ModelRef("anthropic", "claude-sonnet-4-5");
    static final ModelRef GPT = new ModelRef("openai", "gpt-4.1-mini");
    static final ModelRef LLAMA = new ModelRef("ollama", "llama3.2");

    final Path dir;
    final MutableClock clock = new MutableClock(EngineHarness.START);
    final ManualRetryTimer timer = new ManualRetryTimer(clock);
    final AtomicReference<Settings> settings = new AtomicReference<>();
    final List<SessionEvent> events = new CopyOnWriteArrayList<>();
    final List<ProviderRequest> requests = new CopyOnWriteArrayList<>();
    final List<Long> requestTimes = new CopyOnWriteArrayList<>();
    private final LinkedBlockingQueue<Function<ProviderRequest, AssistantMessage>> script = new LinkedBlockingQueue<>();
    final ExpiryStore blocks;
    final ExpiryStore cooldownStore;
    final CredentialPool pool;
    final ModelCooldowns cooldowns;
    final SessionModel model = new SessionModel(CLAUDE);
    final ChatSession session;

    PoolHarness(Path dir, RetrySettings retry, String credentialsJson) throws IOException {
        this(dir, retry, credentialsJson, null);
    }

    /** With the state files on a slow disk (null: written on the caller's thread, at once). */
    PoolHarness(Path dir, RetrySettings retry, String credentialsJson, SlowDisk disk) throws IOException {
        this.dir = dir;
        Files.writeString(dir.resolve("credentials.json"), credentialsJson);
        Files.createDirectories(dir.resolve("state"));
        settings.set(settings(retry));
        Path blocksFile = dir.resolve("state/credential-blocks.json");
        Path cooldownsFile = dir.resolve("state/model-cooldowns.json");
        blocks = disk == null ? ExpiryStore.open(blocksFile, clock) : disk.open(blocksFile, clock);
        cooldownStore = disk == null ? ExpiryStore.open(cooldownsFile, clock) : disk.open(cooldownsFile, clock);
        pool = new CredentialPool(CredentialStore.open(ConfigDirectory.at(dir), Map.of(), clock), blocks);
        cooldowns = new ModelCooldowns(cooldownStore);
        session = chat(model, new SessionCredentials(pool));
        session.subscribe(events::add);
    }

    /**
     * Another chat of the same app: its own models, key choice, retry engine and fallback state, sharing the credential
     * pool and the model cooldowns with {@link #session} (as the desktop's chats do) and the scripted provider.
     */
    ChatSession otherChat() {
        return chat(new SessionModel(CLAUDE), new SessionCredentials(pool));
    }

    private ChatSession chat(SessionModel chatModel, SessionCredentials credentials) {
        EngineHarness.FixedRandom random = new EngineHarness.FixedRandom(0.5, 0);
        RetryEngine engine = RetryEngine.builder()
                .settings(() -> settings.get().retry())
                .clock(clock)
                .random(random)
                .timer(timer)
                .usageLimits(new CredentialUsageLimits(pool, credentials, clock, random))
                .fallback(new ChainFallback(
                        settings::get,
                        chatModel,
                        cooldowns,
                        clock,
                        random,
                        FallbackChains.DEFAULT,
                        m -> !pool.allBlocked(m.provider())))
                .build();
        ChatProvider provider = (request, listener, control) -> {
            requests.add(request);
            requestTimes.add(clock.millis());
            Function<ProviderRequest, AssistantMessage> next = script.poll();
            if (next == null) {
                throw new AssertionError("the provider was called more often than scripted");
            }
            AssistantMessage reply = next.apply(request);
            for (ContentBlock b : reply.content()) {
                if (b instanceof ContentBlock.Text t) {
                    listener.onTextDelta(t.text());
                }
            }
            return reply;
        };
        return ChatSession.builder()
                .settings(settings::get)
                .providers(api -> Optional.of(provider))
                .credentials(credentials)
                .retryEngine(engine)
                .clock(clock)
                .sessionModel(chatModel)
                .build();
    }

    static String twoKeys() {
        return "{ \"anthropic\": [ { \"label\": \"a\", \"apiKey\": \"sk-ant-aaaaaaaaaaaa\" },"
                + " { \"label\": \"b\", \"apiKey\": \"sk-ant-bbbbbbbbbbbb\" } ] }";
    }

    static String oneKey() {
        return "{ \"anthropic\": [ { \"label\": \"a\", \"apiKey\": \"sk-ant-aaaaaaaaaaaa\" } ] }";
    }

    /** Retries on or off, at most {@code maxRetries}, no model fallback; 5 min fail-fast, 10 min budget. */
    static RetrySettings retry(boolean enabled, int maxRetries) {
        RetrySettings d = RetrySettings.DEFAULTS;
        return new RetrySettings(
                enabled,
                maxRetries,
                d.baseDelayMs(),
                300_000,
                600_000,
                false,
                Map.of(),
                RetrySettings.RevertPolicy.COOLDOWN_EXPIRY,
                d.refusalPinMs());
    }

    static RetrySettings retry(
            long maxDelayMs, long maxElapsedMs, RetrySettings.RevertPolicy policy, Map<String, List<String>> chains) {
        RetrySettings d = RetrySettings.DEFAULTS;
        return new RetrySettings(
                true,
                d.maxRetries(),
                d.baseDelayMs(),
                maxDelayMs,
                maxElapsedMs,
                true,
                chains,
                policy,
                d.refusalPinMs());
    }

    static Map<String, List<String>> defaultChain() {
        return Map.of("default", List.of(GPT.selector(), LLAMA.selector()));
    }

    private static Settings settings(RetrySettings retry) {
        Map<String, ProviderConfig> providers = new LinkedHashMap<>();
        providers.put(
                "anthropic",
                new ProviderConfig(
                        "anthropic",
                        ProviderApi.OPENAI_COMPLETIONS,
                        "http://127.0.0.1:9/v1",
                        List.of(new ModelConfig(CLAUDE.id(), null))));
        providers.put(
                "openai",
                new ProviderConfig(
                        "openai",
                        ProviderApi.OPENAI_COMPLETIONS,
                        "http://127.0.0.1:9/v1",
                        List.of(new ModelConfig(GPT.id(), null))));
        providers.put(
                "ollama",
                new ProviderConfig(
                        "ollama",
                        ProviderApi.OPENAI_COMPLETIONS,
                        "http://127.0.0.1:9/v1",
                        List.of(new ModelConfig(LLAMA.id(), null))));
        return new Settings(CLAUDE, Map.of(), providers, retry, null);
    }

    @SafeVarargs
    final PoolHarness script(Function<ProviderRequest, AssistantMessage>... replies) {
        script.addAll(List.of(replies));
        return this;
    }

    TurnOutcome prompt(String text) throws Exception {
        PromptResult r = session.prompt(text, null);
        if (r instanceof PromptResult.Rejected rejected) {
            throw new AssertionError(rejected.reason());
        }
        return ((PromptResult.Accepted) r).completion().get(10, TimeUnit.SECONDS);
    }

    <T extends SessionEvent> List<T> all(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    List<String> types() {
        return events.stream()
                .map(SessionEvent::type)
                .filter(t -> !t.equals("message_start") && !t.equals("message_update"))
                .toList();
    }

    /** Who each request went to: {@code provider/model@label}. */
    List<String> targets() {
        return requests.stream()
                .map(r -> r.model().selector() + "@"
                        + (r.credential() == null ? "-" : r.credential().label()))
                .toList();
    }

    @Override
    public void close() {
        session.close();
    }
}
