package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.auth.Credential;
import dev.rebound.auth.Secret;
import dev.rebound.event.ErrorKind;
import dev.rebound.provider.CallControl;
import dev.rebound.provider.HttpClients;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.ServerConversation;
import dev.rebound.provider.StreamListener;
import dev.rebound.provider.StreamWatchdog;
import dev.rebound.provider.StreamingProvider;
import dev.rebound.provider.WireFormat;
import dev.rebound.provider.anthropic.AnthropicMessagesWire;
import dev.rebound.provider.gemini.GeminiWire;
import dev.rebound.provider.openai.ChatCompletionsWire;
import dev.rebound.provider.openai.ResponsesWire;
import dev.rebound.retry.Classification;
import dev.rebound.retry.ClassifierInput;
import dev.rebound.retry.ErrorClassifier;
import dev.rebound.retry.RetryHint;
import dev.rebound.retry.RetryHints;
import dev.rebound.retry.UsageLimitReason;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.TimeoutSettings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.stream.Stream;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each format the simulator speaks, read by Rebound's own wire for that format and judged by the real
 * {@link ErrorClassifier}: every scripted fault must arrive as the kind it stands for, as the built-in provider's
 * faults do ({@link SimulatedFaultsClassificationTest}). The simulator shares no code with those parsers, so this is
 * where the two sides are checked against each other.
 */
class NativeFormatsClassificationTest {
    private static final String KEY = "sim-key-primary";
    private static final TimeoutSettings QUICK = new TimeoutSettings(1_000, 2_000, 400);
    private static final ScheduledExecutorService SCHEDULER = StreamWatchdog.newScheduler();
    private static final ErrorClassifier CLASSIFIER = new ErrorClassifier();
    private static final OkHttpClient HTTP = HttpClients.unpooled(HttpClients.newSharedClient());
    private static SimulatorServer server;

    /** A native format: its api, Rebound's wire for it, and the base URL a user would configure. */
    enum Format {
        CHAT_COMPLETIONS(
                ProviderApi.OPENAI_COMPLETIONS, new ChatCompletionsWire(), port -> "http://127.0.0.1:" + port + "/v1"),
        ANTHROPIC(ProviderApi.ANTHROPIC_MESSAGES, new AnthropicMessagesWire(), port -> "http://127.0.0.1:" + port),
        RESPONSES(ProviderApi.OPENAI_RESPONSES, new ResponsesWire(), port -> "http://127.0.0.1:" + port + "/v1"),
        GEMINI(ProviderApi.GOOGLE_GEMINI, new GeminiWire(), port -> "http://127.0.0.1:" + port);

        final ProviderApi api;
        final WireFormat wire;
        final Function<Integer, String> baseUrl;

        Format(ProviderApi api, WireFormat wire, Function<Integer, String> baseUrl) {
            this.api = api;
            this.wire = wire;
            this.baseUrl = baseUrl;
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = SimulatorServer.start(new SimulatorServer.Config(0, 0, 7), new FaultQueue());
    }

    @AfterAll
    static void stop() {
        server.close();
        SCHEDULER.shutdownNow();
    }

    private static AssistantMessage call(Format format, Fault fault) {
        server.faults().replace(List.of(FaultStep.any(fault)));
        return send(
                format, format.baseUrl.apply(server.port()), "a1", List.of(new UserMessage("u1", "hello", 1)), null);
    }

    /** A Responses call of {@code context}, chained through {@code conversation}. */
    private static AssistantMessage respond(
            String messageId, List<ChatMessage> context, ServerConversation conversation) {
        server.faults().clear();
        return send(Format.RESPONSES, Format.RESPONSES.baseUrl.apply(server.port()), messageId, context, conversation);
    }

    /** One call through Rebound's own wire for {@code format}, as a provider at {@code baseUrl}. */
    private static AssistantMessage send(
            Format format,
            String baseUrl,
            String messageId,
            List<ChatMessage> context,
            ServerConversation conversation) {
        ProviderConfig config =
                new ProviderConfig("sim", format.api, baseUrl, List.of(new ModelConfig("sim-model", null)));
        ProviderRequest request = new ProviderRequest(
                        messageId,
                        config,
                        new ModelRef("sim", "sim-model"),
                        context,
                        new Credential("sim", "primary", new Secret(KEY)),
                        QUICK)
                .withConversation(conversation);
        StreamingProvider provider = new StreamingProvider(
                format.wire, url -> HTTP, Clock.systemUTC(), new StreamWatchdog(SCHEDULER), Map.of());
        return provider.stream(request, StreamListener.IGNORE, new CallControl());
    }

    @Test
    void aResponsesTurnChainsOnTheStoredReplyAndAnUnknownOneIsAStaleReplay() {
        ServerConversation conversation = new ServerConversation();
        UserMessage first = new UserMessage("u1", "hello", 1);
        AssistantMessage reply = respond("a1", List.of(first), conversation);
        UserMessage second = new UserMessage("u2", "and then?", 2);

        AssistantMessage chained = respond("a2", List.of(first, reply, second), conversation);
        ServerConversation forgotten = new ServerConversation();
        forgotten.remember("a1", "sim", "resp_from_a_previous_run");
        AssistantMessage stale = respond("a2", List.of(first, reply, second), forgotten);

        assertThat(conversation.responseIdOf("a1", "sim"))
                .hasValueSatisfying(id -> assertThat(id).startsWith("resp_sim_"));
        assertThat(chained.stopReason()).as(chained.errorMessage()).isEqualTo(StopReason.STOP);
        assertThat(stale.failure().httpStatus()).isEqualTo(400);
        Classification verdict = classify(Format.RESPONSES, stale);
        assertThat(verdict.kind()).as(stale.errorMessage() + " → " + verdict).isEqualTo(ErrorKind.STALE_REPLAY);
    }

    private static Classification classify(Format format, AssistantMessage message) {
        return CLASSIFIER.classify(new ClassifierInput(message, format.api.toString(), false));
    }

    static Stream<Arguments> retryableFaults() {
        List<Arguments> cases = new ArrayList<>();
        for (Format format : Format.values()) {
            cases.add(Arguments.of(format, new Fault.Overload(), ErrorKind.TRANSIENT, null));
            cases.add(Arguments.of(format, new Fault.Overload(true), ErrorKind.TRANSIENT, null));
            cases.add(Arguments.of(format, new Fault.ServerError(500), ErrorKind.TRANSIENT, null));
            cases.add(Arguments.of(format, new Fault.ServerError(503), ErrorKind.TRANSIENT, null));
            if (format == Format.GEMINI) {
                // A quota of Google's, even a per-minute one, is a usage limit of that period to Rebound
                // (GeminiApiTest).
                cases.add(Arguments.of(
                        format, new Fault.RateLimit(3L, null), ErrorKind.USAGE_LIMIT, UsageLimitReason.PER_MINUTE));
            } else {
                cases.add(Arguments.of(format, new Fault.RateLimit(3L, null), ErrorKind.RATE_LIMIT, null));
                cases.add(Arguments.of(
                        format, new Fault.InsufficientQuota(), ErrorKind.USAGE_LIMIT, UsageLimitReason.BILLING));
            }
            cases.add(Arguments.of(format, new Fault.UsageLimit(90), ErrorKind.USAGE_LIMIT, UsageLimitReason.QUOTA));
            cases.add(Arguments.of(format, new Fault.ResetBeforeHeaders(), ErrorKind.TRANSIENT, null));
            cases.add(Arguments.of(format, new Fault.CutAfter(0), ErrorKind.TRANSIENT, null));
            cases.add(Arguments.of(format, new Fault.Stall(0), ErrorKind.TRANSIENT, null));
            cases.add(Arguments.of(format, new Fault.Refusal(), ErrorKind.REFUSAL, null));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1} is classified {2}")
    @MethodSource("retryableFaults")
    void aRetryableFaultIsClassifiedAsItsKind(Format format, Fault fault, ErrorKind kind, UsageLimitReason reason) {
        AssistantMessage reply = call(format, fault);

        assertThat(reply.stopReason()).as(reply.errorMessage()).isEqualTo(StopReason.ERROR);
        Classification verdict = classify(format, reply);
        assertThat(verdict.isRetry()).as(reply.errorMessage() + " → " + verdict).isTrue();
        assertThat(verdict.kind()).as(reply.errorMessage() + " → " + verdict).isEqualTo(kind);
        if (reason != null) {
            assertThat(verdict.usageLimitReason()).isEqualTo(reason);
        }
    }

    @Test
    void geminisDepletedPrepaymentIsBilling() {
        Classification verdict = classify(Format.GEMINI, call(Format.GEMINI, new Fault.InsufficientQuota()));

        assertThat(verdict.kind()).isEqualTo(ErrorKind.USAGE_LIMIT);
        assertThat(verdict.usageLimitReason()).isEqualTo(UsageLimitReason.BILLING);
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aRateLimitCarriesItsWaitAsAHint(Format format) {
        AssistantMessage rate = call(format, new Fault.RateLimit(3L, null));

        assertThat(new RetryHints(Clock.systemUTC())
                        .parse(rate.failure(), rate.errorMessage())
                        .map(RetryHint::delayMs))
                .contains(3000L);
    }

    /**
     * Gemini is left out: its per-day quota carries the step's reset only as Google's {@code retryDelay}, and how long
     * a per-day quota really lasts is the retry hints' decision, not the wire's (GeminiWireTest checks what is sent).
     */
    @ParameterizedTest
    @EnumSource(value = Format.class, names = "GEMINI", mode = EnumSource.Mode.EXCLUDE)
    void aUsageLimitCarriesItsResetAsAHint(Format format) {
        AssistantMessage usage = call(format, new Fault.UsageLimit(90));

        assertThat(new RetryHints(Clock.systemUTC())
                        .parse(usage.failure(), usage.errorMessage())
                        .map(RetryHint::delayMs))
                .hasValueSatisfying(ms -> assertThat(ms).isBetween(89_000L, 90_000L));
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aContextOverflowGoesToTheOverflowHandlerAndABadKeyIsTerminal(Format format) {
        Classification overflow = classify(format, call(format, new Fault.ContextOverflow()));
        AssistantMessage unauthorized = call(format, new Fault.Unauthorized());

        assertThat(overflow.verdict()).isEqualTo(Classification.Verdict.CONTEXT_OVERFLOW);
        assertThat(classify(format, unauthorized).verdict()).isEqualTo(Classification.Verdict.TERMINAL);
        assertThat(unauthorized.errorMessage()).doesNotContain(KEY);
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void okAndDelayAnswerWithTheWholeReplyAndItsUsage(Format format) {
        AssistantMessage ok = call(format, new Fault.Ok());
        AssistantMessage delayed = call(format, new Fault.Delay(50));

        assertThat(ok.stopReason()).as(ok.errorMessage()).isEqualTo(StopReason.STOP);
        assertThat(ok.text()).isEqualTo(String.join("", new ReplyComposer(7).reply("hello")));
        assertThat(ok.usage().outputTokens()).isEqualTo(ReplyComposer.SHORT_TOKENS);
        assertThat(delayed.text()).isEqualTo(ok.text());
        assertThat(classify(format, ok).verdict()).isEqualTo(Classification.Verdict.NOT_AN_ERROR);
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void theBaseUrlTheServerPrintsServesEveryFormat(Format format) {
        server.faults().clear();

        AssistantMessage reply = send(format, server.baseUrl(), "a1", List.of(new UserMessage("u1", "hello", 1)), null);

        assertThat(reply.stopReason()).as(reply.errorMessage()).isEqualTo(StopReason.STOP);
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aCutAfterTextIsNotRetriedBecauseTextWasShown(Format format) {
        AssistantMessage reply = call(format, new Fault.CutAfter(25));

        assertThat(reply.text()).hasSize(25);
        assertThat(classify(format, reply).rule()).isEqualTo("observable-output");
    }
}
