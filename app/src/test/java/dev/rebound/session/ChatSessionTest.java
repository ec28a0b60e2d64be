package dev.rebound.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.AgentEnd;
import dev.rebound.event.MessageEnd;
import dev.rebound.event.MessageUpdate;
import dev.rebound.event.ModelChanged;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.provider.ChatProvider;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChatSessionTest {
    private static final ModelRef MODEL = new ModelRef("local", "m1");
    private static final ModelRef OTHER = new ModelRef("local", "m2");

    private final Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
    private final AtomicInteger idCounter = new AtomicInteger();
    private final RecordingListener events = new RecordingListener();
    private final List<ProviderRequest> requests = new ArrayList<>();
    private final AtomicReference<Settings> settings = new AtomicReference<>(settings());
    private ChatSession session;

    private static Settings settings() {
        ProviderConfig local = new ProviderConfig(
                "local",
                ProviderApi.OPENAI_COMPLETIONS,
                "http://127.0.0.1:1/v1",
                List.of(new ModelConfig("m1", 8000), new ModelConfig("m2", null)));
        return new Settings(MODEL, Map.of(), Map.of("local", local), null, null);
    }

    private ChatSession session(Function<ProviderRequest, AssistantMessage> script, AttemptPolicy handler) {
        ChatProvider provider = (request, listener, control) -> {
            synchronized (requests) {
                requests.add(request);
            }
            AssistantMessage reply = script.apply(request);
            reply.content().stream()
                    .filter(b -> b instanceof ContentBlock.Text)
                    .forEach(b -> listener.onTextDelta(((ContentBlock.Text) b).text()));
            return reply;
        };
        session = ChatSession.builder()
                .settings(settings::get)
                .providers(api -> Optional.of(provider))
                .attemptPolicy(handler)
                .clock(clock)
                .ids(() -> "id" + idCounter.incrementAndGet())
                .model(MODEL)
                .sessionId("s-1")
                .build();
        session.subscribe(events);
        return session;
    }

    private static AssistantMessage reply(ProviderRequest r, String text) {
        return new AssistantMessage(
                r.messageId(),
                List.of(new ContentBlock.Text(text)),
                r.model().provider(),
                r.model().id(),
                "openai-completions",
                null,
                null,
                StopReason.STOP,
                null,
                null,
                null,
                0);
    }

    private static AssistantMessage failure(ProviderRequest r, String error) {
        return new AssistantMessage(
                r.messageId(),
                List.of(),
                r.model().provider(),
                r.model().id(),
                "openai-completions",
                null,
                null,
                StopReason.ERROR,
                error,
                null,
                new ProviderFailure(FailureKind.HTTP, 503, null, null, Map.of()),
                0);
    }

    @AfterEach
    void close() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    void aPromptEmitsTheUserMessageThenOneStreamedReplyInOrder() throws Exception {
        session(r -> reply(r, "Hello!"), AttemptPolicy.finishAlways());
        PromptResult result = session.prompt("hi", null);
        assertThat(result).isInstanceOf(PromptResult.Accepted.class);
        TurnOutcome outcome = ((PromptResult.Accepted) result).completion().get(5, TimeUnit.SECONDS);

        assertThat(outcome.succeeded()).isTrue();
        assertThat(events.types())
                .containsExactly(
                        "agent_start",
                        "message_start",
                        "message_end",
                        "message_start",
                        "message_update",
                        "message_end",
                        "agent_end");
        assertThat(((MessageUpdate) events.events().get(4)).delta()).isEqualTo("Hello!");
        assertThat(((AgentEnd) events.events().get(6)).willRetry()).isFalse();
        assertThat(session.lastAssistantText()).isEqualTo("Hello!");
        assertThat(session.messages()).hasSize(2);
    }

    @Test
    void anErrorInsideAProviderCallStillEndsTheTurnWithItsEventsAndTheNextPromptIsAnswered() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        session(
                r -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new OutOfMemoryError("simulated: a provider flooded the heap");
                    }
                    return reply(r, "fine again");
                },
                AttemptPolicy.finishAlways());

        TurnOutcome first = ((PromptResult.Accepted) session.prompt("one", null))
                .completion()
                .get(5, TimeUnit.SECONDS);
        TurnOutcome second = ((PromptResult.Accepted) session.prompt("two", null))
                .completion()
                .get(5, TimeUnit.SECONDS);

        assertThat(first.finalMessage().errorMessage()).contains("OutOfMemoryError");
        assertThat(second.succeeded()).isTrue();
        assertThat(events.types().subList(0, 6))
                .containsExactly(
                        "agent_start", "message_start", "message_end", "message_start", "message_end", "notice");
        assertThat(events.types().get(6)).isEqualTo("agent_end");
    }

    @Test
    void aHostThatPromptsAsSoonAsItSeesTheFinalAgentEndIsAccepted() throws Exception {
        session(r -> reply(r, "x"), AttemptPolicy.finishAlways());
        List<PromptResult> fromListener = new ArrayList<>();
        session.subscribe(e -> {
            if (e instanceof AgentEnd && fromListener.isEmpty()) {
                fromListener.add(session.prompt("next", null));
            }
        });
        ((PromptResult.Accepted) session.prompt("first", null)).completion().get(5, TimeUnit.SECONDS);
        assertThat(fromListener).singleElement().isInstanceOf(PromptResult.Accepted.class);
        ((PromptResult.Accepted) fromListener.getFirst()).completion().get(5, TimeUnit.SECONDS);
        assertThat(requests).hasSize(2);
    }

    @Test
    void onAcceptedRunsBeforeTheFirstEvent() throws Exception {
        session(r -> reply(r, "x"), AttemptPolicy.finishAlways());
        List<String> seenAtAccept = new ArrayList<>();
        PromptResult result = session.prompt("hi", () -> seenAtAccept.addAll(events.types()));
        ((PromptResult.Accepted) result).completion().get(5, TimeUnit.SECONDS);
        assertThat(seenAtAccept).isEmpty();
    }

    @Test
    void theProviderIsSentTheWholeConversationOfCompletedMessages() throws Exception {
        session(r -> r.context().size() == 1 ? reply(r, "first") : reply(r, "second"), AttemptPolicy.finishAlways());
        ((PromptResult.Accepted) session.prompt("one", null)).completion().get(5, TimeUnit.SECONDS);
        ((PromptResult.Accepted) session.prompt("two", null)).completion().get(5, TimeUnit.SECONDS);
        assertThat(requests.get(1).context()).extracting(m -> m.role()).containsExactly("user", "assistant", "user");
        assertThat(((UserMessage) requests.get(1).context().get(2)).text()).isEqualTo("two");
    }

    @Test
    void aFinalFailedReplyStaysVisibleButIsNotReplayedToTheModel() throws Exception {
        session(
                r -> r.context().size() == 1 ? failure(r, "503 Service Unavailable") : reply(r, "ok"),
                AttemptPolicy.finishAlways());
        TurnOutcome first = ((PromptResult.Accepted) session.prompt("one", null))
                .completion()
                .get(5, TimeUnit.SECONDS);
        assertThat(first.succeeded()).isFalse();
        assertThat(first.finalMessage().errorMessage()).isEqualTo("503 Service Unavailable");
        assertThat(session.messages()).hasSize(2);

        ((PromptResult.Accepted) session.prompt("two", null)).completion().get(5, TimeUnit.SECONDS);
        assertThat(requests.get(1).context()).extracting(m -> m.role()).containsExactly("user", "user");
    }

    @Test
    void aSecondPromptWhileATurnRunsIsRefusedClearly() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        session(
                r -> {
                    await(release);
                    return reply(r, "late");
                },
                AttemptPolicy.finishAlways());
        PromptResult first = session.prompt("one", null);
        PromptResult second = session.prompt("two", null);
        release.countDown();
        assertThat(second).isInstanceOf(PromptResult.Rejected.class);
        assertThat(((PromptResult.Rejected) second).reason()).contains("already running");
        ((PromptResult.Accepted) first).completion().get(5, TimeUnit.SECONDS);
        assertThat(requests).hasSize(1);
    }

    @Test
    void abortStopsTheProviderCallAndEndsTheTurnAsAborted() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        ChatProvider blocking = (request, listener, control) -> {
            CountDownLatch aborted = new CountDownLatch(1);
            control.onAbort(aborted::countDown);
            started.countDown();
            await(aborted);
            return new AssistantMessage(
                    request.messageId(),
                    List.of(),
                    "local",
                    "m1",
                    "openai-completions",
                    null,
                    null,
                    StopReason.ABORTED,
                    ChatSession.ABORT_MESSAGE,
                    null,
                    null,
                    0);
        };
        session = ChatSession.builder()
                .settings(settings::get)
                .providers(api -> Optional.of(blocking))
                .clock(clock)
                .model(MODEL)
                .build();
        session.subscribe(events);
        PromptResult result = session.prompt("hi", null);
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(session.state().streaming()).isTrue();
        session.abort();
        TurnOutcome outcome = ((PromptResult.Accepted) result).completion().get(5, TimeUnit.SECONDS);
        assertThat(outcome.finalMessage().stopReason()).isEqualTo(StopReason.ABORTED);
        assertThat(session.state().turnRunning()).isFalse();
    }

    @Test
    void aScheduledRetryRemovesTheFailureFromTheContextKeepsItInHistoryAndContinuesTheTurn() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AttemptPolicy retryOnce = result -> result.message().isError() && result.attempt() == 0
                ? new AgentEndDecision.Retry(List.of(), AgentEndDecision.Resume.Due::new)
                : AgentEndDecision.FINISH;
        session(r -> calls.incrementAndGet() == 1 ? failure(r, "503") : reply(r, "ok"), retryOnce);
        ((PromptResult.Accepted) session.prompt("hi", null)).completion().get(5, TimeUnit.SECONDS);

        assertThat(events.types())
                .containsExactly(
                        "agent_start",
                        "message_start",
                        "message_end",
                        "message_start",
                        "message_end",
                        "agent_end",
                        "agent_start",
                        "message_start",
                        "message_update",
                        "message_end",
                        "agent_end");
        assertThat(events.events())
                .filteredOn(e -> e instanceof AgentEnd)
                .extracting(e -> ((AgentEnd) e).willRetry())
                .containsExactly(true, false);
        assertThat(session.messages()).extracting(m -> m.role()).containsExactly("user", "assistant");
        assertThat(requests.get(1).context()).hasSize(1);
        assertThat(History.retriedIds(session.history())).hasSize(1);
        assertThat(session.history())
                .filteredOn(e -> e instanceof RetriedMark m && m.retried())
                .hasSize(1);
        AssistantMessage failed =
                (AssistantMessage) ((MessageEnd) events.events().get(4)).message();
        assertThat(failed.errorMessage()).isEqualTo("503");
    }

    @Test
    void settingsAreReadAtEveryCallSoAChangedTimeoutAppliesToTheNextCall() throws Exception {
        session(r -> reply(r, "x"), AttemptPolicy.finishAlways());
        ((PromptResult.Accepted) session.prompt("one", null)).completion().get(5, TimeUnit.SECONDS);
        Settings s = settings.get();
        settings.set(new Settings(
                s.model(),
                s.modelRoles(),
                s.providers(),
                s.retry(),
                new dev.rebound.settings.TimeoutSettings(1, 2, 3)));
        ((PromptResult.Accepted) session.prompt("two", null)).completion().get(5, TimeUnit.SECONDS);
        assertThat(requests.get(1).timeouts().idleMs()).isEqualTo(3);
    }

    @Test
    void setModelSwitchesTheNextCallAndRecordsAUserModelChange() throws Exception {
        session(r -> reply(r, r.model().id()), AttemptPolicy.finishAlways());
        session.setModel(OTHER);
        ((PromptResult.Accepted) session.prompt("hi", null)).completion().get(5, TimeUnit.SECONDS);
        assertThat(requests.get(0).model()).isEqualTo(OTHER);
        assertThat(events.events().get(0)).isEqualTo(new ModelChanged(MODEL, OTHER, "user"));
        assertThat(session.history().get(0)).isInstanceOf(ModelChangeEntry.class);
    }

    @Test
    void anUnconfiguredModelIsRefused() {
        session(r -> reply(r, "x"), AttemptPolicy.finishAlways());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> session.setModel(new ModelRef("nope", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not configured");
        assertThat(session.model()).isEqualTo(MODEL);
    }

    @Test
    void aProviderWhoseApiIsNotImplementedEndsTheTurnWithAClearError() throws Exception {
        session = ChatSession.builder()
                .settings(settings::get)
                .providers(api -> Optional.empty())
                .clock(clock)
                .model(MODEL)
                .build();
        TurnOutcome outcome = ((PromptResult.Accepted) session.prompt("hi", null))
                .completion()
                .get(5, TimeUnit.SECONDS);
        assertThat(outcome.finalMessage().errorMessage()).contains("which this build of Rebound cannot speak");
        assertThat(outcome.finalMessage().failure().kind()).isEqualTo(FailureKind.CONFIGURATION);
    }

    @Test
    void aListenerThatThrowsDoesNotHurtTheTurnOrOtherListeners() throws Exception {
        session(r -> reply(r, "fine"), AttemptPolicy.finishAlways());
        session.subscribe(e -> {
            throw new IllegalStateException("bad listener");
        });
        TurnOutcome outcome = ((PromptResult.Accepted) session.prompt("hi", null))
                .completion()
                .get(5, TimeUnit.SECONDS);
        assertThat(outcome.succeeded()).isTrue();
        assertThat(events.types()).endsWith("agent_end");
    }

    @Test
    void aRestoredSessionSendsItsHistoryWithoutRetriedFailuresAndKeepsRecording() throws Exception {
        UserMessage hi = new UserMessage("u1", "hi", 1);
        AssistantMessage failed = new AssistantMessage(
                "a1",
                List.of(),
                "local",
                "m1",
                "openai-completions",
                null,
                null,
                StopReason.ERROR,
                "503",
                null,
                new ProviderFailure(FailureKind.HTTP, 503, null, null, Map.of()),
                2);
        AssistantMessage answer = new AssistantMessage(
                "a2",
                List.of(new ContentBlock.Text("Hello")),
                "local",
                "m1",
                "openai-completions",
                null,
                null,
                StopReason.STOP,
                null,
                null,
                null,
                3);
        RestoredSession restored = new RestoredSession(
                "old-session",
                List.of(
                        MessageEntry.of(hi),
                        MessageEntry.of(failed),
                        new RetriedMark("m1", 2, failed.id(), true),
                        MessageEntry.of(answer)),
                MODEL);
        List<String> sunk = new ArrayList<>();
        HistorySink sink = entry -> sunk.add(entry.getClass().getSimpleName());
        ChatProvider provider = (request, listener, control) -> {
            requests.add(request);
            return reply(request, "again");
        };
        session = ChatSession.builder()
                .settings(settings::get)
                .providers(api -> Optional.of(provider))
                .restore(restored)
                .historySink(sink)
                .clock(clock)
                .model(MODEL)
                .build();

        assertThat(session.id()).isEqualTo("old-session");
        assertThat(session.messages()).extracting(m -> m.id()).containsExactly("u1", "a2");
        ((PromptResult.Accepted) session.prompt("more", null)).completion().get(5, TimeUnit.SECONDS);
        assertThat(requests.getFirst().context())
                .extracting(m -> m.id())
                .startsWith("u1", "a2")
                .doesNotContain("a1");
        assertThat(session.history()).hasSize(6);
        assertThat(sunk).containsExactly("MessageEntry", "MessageEntry");
    }

    @Test
    void everyMessageReachesTheHistorySinkBeforeItsEventGoesOut() throws Exception {
        List<String> saved = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> seenBeforeSaved = new java.util.concurrent.CopyOnWriteArrayList<>();
        HistorySink sink = entry -> {
            if (entry instanceof MessageEntry m) {
                saved.add(m.message().id());
            }
        };
        ChatProvider provider = (request, listener, control) -> reply(request, "x");
        session = ChatSession.builder()
                .settings(settings::get)
                .providers(api -> Optional.of(provider))
                .historySink(sink)
                .clock(clock)
                .model(MODEL)
                .build();
        session.subscribe(e -> {
            if (e instanceof MessageEnd end && !saved.contains(end.message().id())) {
                seenBeforeSaved.add(end.message().id());
            }
        });
        ((PromptResult.Accepted) session.prompt("hi", null)).completion().get(5, TimeUnit.SECONDS);
        assertThat(saved).hasSize(2);
        assertThat(seenBeforeSaved)
                .as("a host may only see what is already in the file")
                .isEmpty();
    }

    @Test
    void aPromptWithNoModelIsRefused() {
        session = ChatSession.builder()
                .settings(() -> Settings.DEFAULTS)
                .providers(api -> Optional.empty())
                .build();
        assertThat(session.prompt("hi", null)).isInstanceOf(PromptResult.Rejected.class);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
