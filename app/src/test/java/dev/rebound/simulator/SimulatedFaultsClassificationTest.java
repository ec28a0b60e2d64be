package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.auth.Credential;
import dev.rebound.auth.Secret;
import dev.rebound.event.ErrorKind;
import dev.rebound.provider.CallControl;
import dev.rebound.provider.HttpClients;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.SimulatorApiProvider;
import dev.rebound.provider.StreamListener;
import dev.rebound.provider.StreamWatchdog;
import dev.rebound.provider.openai.OpenAiCompletionsProvider;
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
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every scripted fault travels the real path — the simulator's HTTP server, OkHttp, Rebound's Chat Completions
 * provider — and the real {@link ErrorClassifier} must classify what arrives as the kind the fault stands for.
 */
class SimulatedFaultsClassificationTest {
    /** A key long enough that Rebound's key scrubber does not mistake JSON for it. */
    private static final String KEY = "sim-key-primary";

    private static final TimeoutSettings QUICK = new TimeoutSettings(1_000, 2_000, 400);
    private static final ScheduledExecutorService SCHEDULER = StreamWatchdog.newScheduler();
    private static final ErrorClassifier CLASSIFIER = new ErrorClassifier();
    private static SimulatorServer server;
    private static SimulatorApiProvider provider;

    @BeforeAll
    static void start() throws Exception {
        server = SimulatorServer.start(new SimulatorServer.Config(0, 0, 7), new FaultQueue());
        provider = new SimulatorApiProvider(
                new OpenAiCompletionsProvider(
                        HttpClients.unpooled(HttpClients.newSharedClient()),
                        Clock.systemUTC(),
                        new StreamWatchdog(SCHEDULER)),
                server::baseUrl,
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        server.close();
        SCHEDULER.shutdownNow();
    }

    private static AssistantMessage call(Fault fault, String key) {
        server.faults().replace(List.of(FaultStep.any(fault)));
        ProviderConfig config = new ProviderConfig(
                "simulator", ProviderApi.SIMULATOR, null, List.of(new ModelConfig(SimulatorServer.MODEL_ID, null)));
        ProviderRequest request = new ProviderRequest(
                "a1",
                config,
                new ModelRef("simulator", SimulatorServer.MODEL_ID),
                List.of(new UserMessage("u1", "hello", 1)),
                new Credential("simulator", "primary", new Secret(key)),
                QUICK);
        return provider.stream(request, StreamListener.IGNORE, new CallControl());
    }

    private static Classification classify(AssistantMessage message) {
        return CLASSIFIER.classify(new ClassifierInput(message, "openai-completions", false));
    }

    static Stream<Arguments> retryableFaults() {
        return Stream.of(
                Arguments.of(new Fault.Overload(), ErrorKind.TRANSIENT, null, "529 Overloaded: Overloaded"),
                Arguments.of(
                        new Fault.ServerError(503),
                        ErrorKind.TRANSIENT,
                        null,
                        "503 Service Unavailable: The server is overloaded or not ready yet."),
                Arguments.of(
                        new Fault.ServerError(500),
                        ErrorKind.TRANSIENT,
                        null,
                        "500 Internal Server Error: The server had an error"),
                Arguments.of(new Fault.RateLimit(3L, null), ErrorKind.RATE_LIMIT, null, "429 Too Many Requests"),
                Arguments.of(
                        new Fault.UsageLimit(90),
                        ErrorKind.USAGE_LIMIT,
                        UsageLimitReason.QUOTA,
                        "The usage limit has been reached"),
                Arguments.of(
                        new Fault.InsufficientQuota(),
                        ErrorKind.USAGE_LIMIT,
                        UsageLimitReason.BILLING,
                        "You exceeded your current quota"),
                Arguments.of(
                        new Fault.ResetBeforeHeaders(),
                        ErrorKind.TRANSIENT,
                        null,
                        "Connection reset before the response headers arrived"),
                Arguments.of(new Fault.CutAfter(0), ErrorKind.TRANSIENT, null, "The stream ended before the reply"),
                Arguments.of(new Fault.Stall(0), ErrorKind.TRANSIENT, null, "Stream stalled"),
                Arguments.of(new Fault.Refusal(), ErrorKind.REFUSAL, null, "The model refused to answer"));
    }

    @ParameterizedTest(name = "{0} is classified {1}")
    @MethodSource("retryableFaults")
    void aRetryableFaultIsClassifiedAsItsKind(Fault fault, ErrorKind kind, UsageLimitReason reason, String text) {
        AssistantMessage reply = call(fault, "sim-key-primary");

        assertThat(reply.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(reply.errorMessage()).contains(text);
        Classification verdict = classify(reply);
        assertThat(verdict.isRetry()).as(verdict.toString()).isTrue();
        assertThat(verdict.kind()).isEqualTo(kind);
        if (reason != null) {
            assertThat(verdict.usageLimitReason()).isEqualTo(reason);
        }
    }

    @Test
    void rateLimitAndUsageLimitCarryTheirWaitAsAHint() {
        RetryHints hints = new RetryHints(Clock.systemUTC());

        AssistantMessage seconds = call(new Fault.RateLimit(3L, null), KEY);
        AssistantMessage millis = call(new Fault.RateLimit(null, 1500L), KEY);
        AssistantMessage usage = call(new Fault.UsageLimit(90), KEY);

        assertThat(hints.parse(seconds.failure(), seconds.errorMessage()).map(RetryHint::delayMs))
                .contains(3000L);
        assertThat(hints.parse(millis.failure(), millis.errorMessage()).map(RetryHint::delayMs))
                .contains(1500L);
        assertThat(hints.parse(usage.failure(), usage.errorMessage()).map(RetryHint::delayMs))
                .contains(90_000L);
    }

    @Test
    void aContextOverflowGoesToTheOverflowHandler() {
        Classification verdict = classify(call(new Fault.ContextOverflow(), KEY));

        assertThat(verdict.verdict()).isEqualTo(Classification.Verdict.CONTEXT_OVERFLOW);
    }

    @Test
    void unauthorizedIsTerminalAndShowsOnlyAMaskedKey() {
        AssistantMessage reply = call(new Fault.Unauthorized(), "sim-key-primary");

        assertThat(classify(reply).verdict()).isEqualTo(Classification.Verdict.TERMINAL);
        assertThat(reply.failure().httpStatus()).isEqualTo(401);
        assertThat(reply.errorMessage()).doesNotContain("sim-key-primary");
    }

    @Test
    void aCutAfterTextIsNotRetriedBecauseTextWasShown() {
        AssistantMessage reply = call(new Fault.CutAfter(25), KEY);

        assertThat(reply.text()).hasSize(25);
        Classification verdict = classify(reply);
        assertThat(verdict.verdict()).isEqualTo(Classification.Verdict.TERMINAL);
        assertThat(verdict.rule()).isEqualTo("observable-output");
    }

    @Test
    void okAndDelayAnswerWithACompleteReply() {
        AssistantMessage ok = call(new Fault.Ok(), KEY);
        AssistantMessage delayed = call(new Fault.Delay(50), KEY);

        assertThat(ok.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(ok.api()).isEqualTo("simulator");
        assertThat(ok.text()).startsWith("## ");
        assertThat(ok.usage().outputTokens()).isEqualTo(ReplyComposer.SHORT_TOKENS);
        assertThat(delayed.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(delayed.text()).isEqualTo(ok.text());
        assertThat(classify(ok).verdict()).isEqualTo(Classification.Verdict.NOT_AN_ERROR);
    }

    @Test
    void aStepKeptForOneKeyWaitsForThatKey() {
        server.faults().replace(List.of(new FaultStep(new Fault.Overload(), "sim-key-secondary")));

        Optional<Integer> other =
                Optional.ofNullable(callQueued("sim-key-primary").failure()).map(f -> f.httpStatus());
        AssistantMessage keyed = callQueued("sim-key-secondary");

        assertThat(other).isEmpty();
        assertThat(keyed.failure().httpStatus()).isEqualTo(529);
        assertThat(server.faults().queued()).isEmpty();
    }

    private static AssistantMessage callQueued(String key) {
        ProviderConfig config = new ProviderConfig(
                "simulator",
                ProviderApi.SIMULATOR,
                server.baseUrl(),
                List.of(new ModelConfig(SimulatorServer.MODEL_ID, null)));
        ProviderRequest request = new ProviderRequest(
                "a1",
                config,
                new ModelRef("simulator", SimulatorServer.MODEL_ID),
                List.of(new UserMessage("u1", "hello", 1)),
                new Credential("simulator", "x", new Secret(key)),
                QUICK);
        return provider.stream(request, StreamListener.IGNORE, new CallControl());
    }
}
