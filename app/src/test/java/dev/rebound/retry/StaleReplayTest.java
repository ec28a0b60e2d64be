package dev.rebound.retry;

import static dev.rebound.provider.WireFixture.error;
import static dev.rebound.provider.WireFixture.eventStream;
import static dev.rebound.provider.WireFixture.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.ErrorKind;
import dev.rebound.event.SessionEvent;
import dev.rebound.expiry.ExpiryStore;
import dev.rebound.fallback.ChainFallback;
import dev.rebound.fallback.FallbackChains;
import dev.rebound.fallback.ModelCooldowns;
import dev.rebound.json.Json;
import dev.rebound.provider.HttpClients;
import dev.rebound.provider.StreamWatchdog;
import dev.rebound.provider.StreamingProvider;
import dev.rebound.provider.openai.ResponsesWire;
import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.session.SessionModel;
import dev.rebound.session.TurnOutcome;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.Settings;
import dev.rebound.testing.MutableClock;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * §3 step 5 of the retry policy end to end: a real {@link ChatSession} and {@link RetryEngine} with the Responses
 * provider against a loopback server. A turn chains on the previous reply's stored response; when the server no longer
 * knows it, the session forgets the id and the retry, sent with no delay, carries the whole conversation.
 */
class StaleReplayTest {
    private static final ModelRef MODEL = new ModelRef("openai", "gpt-4.1");
    private static final ModelRef FALLBACK = new ModelRef("openai", "gpt-4.1-mini");
    private final AtomicInteger ids = new AtomicInteger();

    private final MockWebServer server = new MockWebServer();
    private final ScheduledExecutorService scheduler = StreamWatchdog.newScheduler();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final ManualRetryTimer timer = new ManualRetryTimer(clock);
    private final List<SessionEvent> events = new CopyOnWriteArrayList<>();
    private ChatSession session;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws Exception {
        server.start();
        start(RetrySettings.DEFAULTS);
    }

    /** (Re)starts the session with these retry settings; a fallback chain names {@link #FALLBACK}. */
    private void start(RetrySettings retry) {
        if (session != null) {
            session.close();
        }
        ProviderConfig openai = new ProviderConfig(
                "openai",
                ProviderApi.OPENAI_RESPONSES,
                server.url("/v1").toString(),
                List.of(new ModelConfig(MODEL.id(), null), new ModelConfig(FALLBACK.id(), null)));
        Settings settings = new Settings(MODEL, Map.of(), Map.of("openai", openai), retry, null);
        SessionModel model = new SessionModel(MODEL);
        RetryEngine engine = RetryEngine.builder()
                .settings(() -> retry)
                .clock(clock)
                .random(new EngineHarness.FixedRandom(0.5, 0))
                .timer(timer)
                .fallback(new ChainFallback(
                        () -> settings,
                        model,
                        new ModelCooldowns(ExpiryStore.open(dir.resolve("cooldowns.json"), clock)),
                        clock,
                        new EngineHarness.FixedRandom(0.5, 0),
                        FallbackChains.DEFAULT,
                        m -> true))
                .build();
        StreamingProvider responses = new StreamingProvider(
                new ResponsesWire(), HttpClients.newSharedClient(), clock, new StreamWatchdog(scheduler));
        session = ChatSession.builder()
                .sessionId("chat-1")
                .settings(() -> settings)
                .providers(api -> Optional.of(responses))
                .retryEngine(engine)
                .clock(clock)
                .ids(() -> "id-" + ids.incrementAndGet())
                .sessionModel(model)
                .build();
        session.subscribe(events::add);
    }

    @AfterEach
    void stop() throws Exception {
        session.close();
        server.close();
        scheduler.shutdownNow();
    }

    private TurnOutcome prompt(String text) throws Exception {
        return ((PromptResult.Accepted) session.prompt(text, null)).completion().get(10, TimeUnit.SECONDS);
    }

    private static JsonNode body(RecordedRequest request) throws Exception {
        return Json.newMapper().readTree(request.getBody().utf8());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "openai-responses/error-400-previous_response_not_found.json",
                "openai-responses/error-404-item_not_found.json",
                "openai-responses/error-404-item_not_found-store-false.json"
            })
    void aStaleReplayDropsTheResponseIdAndReplaysTheWholeConversationAtOnce(String staleBody) throws Exception {
        server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));
        int status = staleBody.contains("-400-") ? 400 : 404;
        server.enqueue(error(status, fixture(staleBody)));
        server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));

        TurnOutcome first = prompt("First question");
        TurnOutcome second = prompt("Second question");

        assertThat(first.finalMessage().stopReason()).isEqualTo(StopReason.STOP);
        assertThat(second.finalMessage().stopReason()).isEqualTo(StopReason.STOP);
        JsonNode opening = body(server.takeRequest());
        JsonNode chained = body(server.takeRequest());
        JsonNode replayed = body(server.takeRequest());
        assertThat(opening.has("previous_response_id")).isFalse();
        assertThat(chained.get("previous_response_id").asText()).startsWith("resp_");
        assertThat(chained.get("input")).hasSize(1);
        assertThat(chained.at("/input/0/content/0/text").asText()).isEqualTo("Second question");
        assertThat(replayed.has("previous_response_id")).isFalse();
        assertThat(replayed.get("input")).hasSize(3);
        assertThat(replayed.at("/input/0/content/0/text").asText()).isEqualTo("First question");
        assertThat(replayed.at("/input/1/role").asText()).isEqualTo("assistant");
        assertThat(replayed.at("/input/1/content/0/text").asText())
                .isEqualTo(first.finalMessage().text());
        assertThat(replayed.at("/input/2/content/0/text").asText()).isEqualTo("Second question");
        AutoRetryStart retry = events.stream()
                .filter(AutoRetryStart.class::isInstance)
                .map(AutoRetryStart.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(retry.errorKind()).isEqualTo(ErrorKind.STALE_REPLAY);
        assertThat(retry.delayMs()).isZero();
        assertThat(timer.delays()).containsExactly(0L);
        assertThat(events).anySatisfy(e -> assertThat(e).isInstanceOf(AutoRetryEnd.class));
        assertThat(events)
                .filteredOn(dev.rebound.event.RetryChainEnd.class::isInstance)
                .singleElement()
                .satisfies(e -> assertThat(((dev.rebound.event.RetryChainEnd) e).attempts())
                        .extracting(dev.rebound.event.RetryAttempt::decidedBy)
                        .containsExactly(dev.rebound.event.RetryDecidedBy.STALE_REPLAY));
    }

    private static RetrySettings retry(boolean enabled, Map<String, List<String>> chains) {
        RetrySettings d = RetrySettings.DEFAULTS;
        return new RetrySettings(
                enabled,
                d.maxRetries(),
                d.baseDelayMs(),
                d.maxDelayMs(),
                d.maxElapsedMs(),
                true,
                chains,
                d.fallbackRevertPolicy(),
                d.refusalPinMs());
    }

    private List<JsonNode> bodies(int count) throws Exception {
        List<JsonNode> out = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            RecordedRequest request = server.takeRequest(5, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(request).as("request %d of %d", i + 1, count).isNotNull();
            out.add(body(request));
        }
        return out;
    }

    @Test
    void withRetriesOffAStaleReplayStillMakesTheNextTurnSendTheWholeConversation() throws Exception {
        start(retry(false, Map.of()));
        server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));
        server.enqueue(error(400, fixture("openai-responses/error-400-previous_response_not_found.json")));
        server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));

        prompt("First question");
        TurnOutcome failed = prompt("Second question");
        prompt("Third question");

        List<JsonNode> sent = bodies(3);
        assertThat(failed.finalMessage().stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(sent.get(1).has("previous_response_id")).isTrue();
        assertThat(sent.get(2).has("previous_response_id")).isFalse();
        assertThat(sent.get(2).get("input"))
                .as("first question, its answer, the second question (its failed reply is not sent), the third")
                .hasSize(4);
    }

    @Test
    void aStaleReplayIsRetriedOnTheSameModelNeverByFallbackAndTheNextTurnChainsOnTheReplayedAnswer() throws Exception {
        start(retry(true, Map.of("default", List.of(FALLBACK.selector()))));
        server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));
        server.enqueue(error(400, fixture("openai-responses/error-400-previous_response_not_found.json")));
        server.enqueue(eventStream(fixture("openai-responses/stream-reasoning.sse")));
        server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));

        prompt("First question");
        prompt("Second question");
        prompt("Third question");

        List<JsonNode> sent = bodies(4);
        assertThat(sent).extracting(b -> b.get("model").asText()).containsOnly(MODEL.id());
        assertThat(events).noneMatch(e -> e.type().startsWith("retry_fallback"));
        assertThat(sent.get(3).get("previous_response_id").asText())
                .as("the replayed answer's own id")
                .isEqualTo("resp_68b5ebab461881969ed94149372c2a530698ecbf1b9f2704");
        assertThat(sent.get(3).get("input")).hasSize(1);
    }

    @Test
    void aServerThatForgetsTwiceIsNoLongerAskedToRemember() throws Exception {
        for (int i = 0; i < 2; i++) {
            server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));
            server.enqueue(error(400, fixture("openai-responses/error-400-unsupported_parameter-zdr.json")));
        }
        for (int i = 0; i < 2; i++) {
            server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));
        }

        prompt("one");
        prompt("two");
        prompt("three");
        prompt("four");

        // one; two (chained, forgotten, replayed whole); three (chained again, forgotten again, replayed); four.
        List<JsonNode> sent = bodies(6);
        assertThat(sent.get(1).has("previous_response_id")).isTrue();
        assertThat(sent.get(2).has("previous_response_id")).isFalse();
        assertThat(sent.get(3).has("previous_response_id"))
                .as("chained again after one reset")
                .isTrue();
        assertThat(sent.get(4).has("previous_response_id")).isFalse();
        assertThat(sent.get(5).has("previous_response_id")).as("not after two").isFalse();
        assertThat(sent.get(5).get("input")).hasSize(7);
    }

    @Test
    void withStoreOffEveryTurnSendsTheWholeConversationAndNothingIsChained() throws Exception {
        session.close();
        ProviderConfig openai = new ProviderConfig(
                        "openai",
                        ProviderApi.OPENAI_RESPONSES,
                        server.url("/v1").toString(),
                        List.of(new ModelConfig(MODEL.id(), null)))
                .withStore(false);
        Settings settings = new Settings(MODEL, Map.of(), Map.of("openai", openai), RetrySettings.DEFAULTS, null);
        StreamingProvider responses = new StreamingProvider(
                new ResponsesWire(), HttpClients.newSharedClient(), clock, new StreamWatchdog(scheduler));
        session = ChatSession.builder()
                .settings(() -> settings)
                .providers(api -> Optional.of(responses))
                .clock(clock)
                .model(MODEL)
                .build();
        server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));
        server.enqueue(eventStream(fixture("openai-responses/stream-text.sse")));

        prompt("First question");
        prompt("Second question");

        JsonNode opening = body(server.takeRequest());
        JsonNode next = body(server.takeRequest());
        assertThat(opening.get("store").asBoolean()).isFalse();
        assertThat(next.has("previous_response_id")).isFalse();
        assertThat(next.get("input")).hasSize(3);
    }
}
