package dev.rebound.retry;

import dev.rebound.event.SessionEvent;
import dev.rebound.provider.ChatProvider;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.session.ChatSession;
import dev.rebound.session.HistorySink;
import dev.rebound.session.PromptResult;
import dev.rebound.session.TurnOutcome;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.Settings;
import dev.rebound.testing.MutableClock;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

/**
 * A real session with a real retry engine, a scripted provider (one reply per call, in order), a manual timer and a
 * mutable clock, and a recorder of every event.
 */
final class EngineHarness implements AutoCloseable {
    static final ModelRef MODEL = new ModelRef("openai", "gpt-4.1-mini");
    static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

    final MutableClock clock = new MutableClock(START);
    final ManualRetryTimer timer = new ManualRetryTimer(clock);
    final AtomicReference<RetrySettings> retry = new AtomicReference<>(RetrySettings.DEFAULTS);
    final List<SessionEvent> events = new CopyOnWriteArrayList<>();
    final List<ProviderRequest> requests = new CopyOnWriteArrayList<>();
    private final LinkedBlockingQueue<Function<ProviderRequest, AssistantMessage>> script = new LinkedBlockingQueue<>();
    final ChatSession session;
    final RetryEngine engine;

    EngineHarness() {
        this(ModelFallback.NONE);
    }

    EngineHarness(ModelFallback fallback) {
        this(fallback, new FixedRandom(0.5, 0));
    }

    EngineHarness(ModelFallback fallback, RandomGenerator random) {
        this(fallback, random, timer -> timer, HistorySink.NONE);
    }

    /**
     * @param timers wraps the harness's manual timer (to observe when waits start)
     * @param sink receives the session's history as it is written
     */
    EngineHarness(ModelFallback fallback, RandomGenerator random, UnaryOperator<RetryTimer> timers, HistorySink sink) {
        engine = RetryEngine.builder()
                .settings(retry::get)
                .clock(clock)
                .random(random)
                .timer(timers.apply(timer))
                .fallback(fallback)
                .build();
        ProviderConfig openai = new ProviderConfig(
                "openai",
                ProviderApi.OPENAI_COMPLETIONS,
                "http://127.0.0.1:9/v1",
                List.of(new ModelConfig("gpt-4.1-mini", null)));
        Settings settings = new Settings(MODEL, Map.of(), Map.of("openai", openai), null, null);
        ChatProvider provider = (request, listener, control) -> {
            requests.add(request);
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
        session = ChatSession.builder()
                .settings(() -> settings.withRetry(retry.get()))
                .providers(api -> Optional.of(provider))
                .retryEngine(engine)
                .clock(clock)
                .model(MODEL)
                .historySink(sink)
                .build();
        session.subscribe(events::add);
    }

    @SafeVarargs
    final EngineHarness script(Function<ProviderRequest, AssistantMessage>... replies) {
        script.addAll(List.of(replies));
        return this;
    }

    EngineHarness settings(RetrySettings s) {
        retry.set(s);
        return this;
    }

    TurnOutcome prompt(String text) throws Exception {
        PromptResult r = session.prompt(text, null);
        return ((PromptResult.Accepted) r).completion().get(10, TimeUnit.SECONDS);
    }

    PromptResult.Accepted promptAsync(String text) {
        return (PromptResult.Accepted) session.prompt(text, null);
    }

    List<String> types() {
        return events.stream().map(SessionEvent::type).toList();
    }

    /** Types without the user message and streaming noise: the shape of a turn. */
    List<String> shape() {
        List<String> out = new ArrayList<>();
        for (SessionEvent e : events) {
            switch (e.type()) {
                case "message_start", "message_update" -> {}
                case "message_end" ->
                    out.add(((dev.rebound.event.MessageEnd) e).message().role().equals("user") ? "user" : "reply");
                default -> out.add(e.type());
            }
        }
        return out;
    }

    <T extends SessionEvent> List<T> all(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    static Function<ProviderRequest, AssistantMessage> ok(String text) {
        return r -> message(r, List.of(new ContentBlock.Text(text)), StopReason.STOP, null, null, null);
    }

    /** An HTTP failure shaped the way the OpenAI-compatible provider reports it. */
    static Function<ProviderRequest, AssistantMessage> http(
            int status, String reason, String text, String type, String code, Map<String, String> headers) {
        StringBuilder m = new StringBuilder()
                .append(status)
                .append(' ')
                .append(reason)
                .append(": ")
                .append(text);
        List<String> facts = new ArrayList<>();
        if (type != null) {
            facts.add("type: " + type);
        }
        if (code != null) {
            facts.add("code: " + code);
        }
        if (!facts.isEmpty()) {
            m.append(" (").append(String.join(", ", facts)).append(')');
        }
        return r -> message(
                r,
                List.of(),
                StopReason.ERROR,
                m.toString(),
                null,
                new ProviderFailure(FailureKind.HTTP, status, type, code, headers));
    }

    static Function<ProviderRequest, AssistantMessage> overloaded() {
        return http(529, "Overloaded", "Overloaded", "overloaded_error", null, Map.of());
    }

    static Function<ProviderRequest, AssistantMessage> transport(String text) {
        return r -> message(r, List.of(), StopReason.ERROR, text, null, ProviderFailure.of(FailureKind.TRANSPORT));
    }

    static Function<ProviderRequest, AssistantMessage> cutAfter(String text) {
        return r -> message(
                r,
                List.of(new ContentBlock.Text(text)),
                StopReason.ERROR,
                "Connection lost while streaming after " + text.length()
                        + " characters (ProtocolException: unexpected end of stream)",
                new StopDetails(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT, null),
                ProviderFailure.of(FailureKind.TRANSPORT));
    }

    static Function<ProviderRequest, AssistantMessage> refusal() {
        return r -> message(
                r,
                List.of(),
                StopReason.ERROR,
                "The model refused to answer: I can't help with that.",
                new StopDetails(StopDetails.REFUSAL, "I can't help with that."),
                null);
    }

    static Function<ProviderRequest, AssistantMessage> reasonlessAbort() {
        return r -> message(r, List.of(), StopReason.ABORTED, ChatSession.ABORT_MESSAGE, null, null);
    }

    private static AssistantMessage message(
            ProviderRequest r,
            List<ContentBlock> content,
            StopReason stop,
            String error,
            StopDetails details,
            ProviderFailure failure) {
        String credential = r.credential() == null ? "work" : r.credential().label();
        return new AssistantMessage(
                r.messageId(),
                content,
                r.model().provider(),
                r.model().id(),
                "openai-completions",
                credential,
                null,
                stop,
                error,
                details,
                failure,
                0);
    }

    @Override
    public void close() {
        session.close();
    }

    /** A random source with fixed answers: jitter factor 0.75 + 0.25·d. */
    static final class FixedRandom implements RandomGenerator {
        private final double d;
        private final long l;

        FixedRandom(double d, long l) {
            this.d = d;
            this.l = l;
        }

        @Override
        public long nextLong() {
            return l;
        }

        @Override
        public long nextLong(long bound) {
            return Math.min(l, bound - 1);
        }

        @Override
        public double nextDouble() {
            return d;
        }
    }
}
