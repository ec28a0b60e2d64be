package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.history.SessionJournal;
import dev.rebound.history.SessionLoader;
import dev.rebound.provider.ChatProvider;
import dev.rebound.retry.RetryEngine;
import dev.rebound.retry.RetryTimer;
import dev.rebound.session.ChatSession;
import dev.rebound.session.JournalHistorySink;
import dev.rebound.session.SessionRestorer;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn that ends in an internal error (a bug in a provider while it streams, before or inside a retry chain) shows
 * the same rows live and when its chat is reopened from its file: the broken reply, with what it had shown, failed,
 * and the chain's end.
 */
class InternalErrorsReopenedAsLiveTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ModelRef MODEL = new ModelRef("local", "test-model");

    @TempDir
    Path dir;

    private final FxQueue fx = new FxQueue();
    private final Deque<
                    BiFunction<
                            dev.rebound.provider.ProviderRequest,
                            dev.rebound.provider.StreamListener,
                            AssistantMessage>>
            script = new ArrayDeque<>();

    private static final Settings SETTINGS = new Settings(
            MODEL,
            Map.of(),
            Map.of(
                    "local",
                    new ProviderConfig(
                            "local",
                            ProviderApi.OPENAI_COMPLETIONS,
                            "http://127.0.0.1:9/v1",
                            List.of(new ModelConfig(MODEL.id(), null)))),
            RetrySettings.DEFAULTS,
            null);

    private static AssistantMessage serviceUnavailable(dev.rebound.provider.ProviderRequest r) {
        return new AssistantMessage(
                r.messageId(),
                List.of(),
                MODEL.provider(),
                MODEL.id(),
                "openai-completions",
                null,
                null,
                StopReason.ERROR,
                "503 Service Unavailable",
                null,
                new ProviderFailure(FailureKind.HTTP, 503, null, null, Map.of()),
                1);
    }

    private static AssistantMessage breakAfterPartial(
            dev.rebound.provider.ProviderRequest r, dev.rebound.provider.StreamListener listener) {
        listener.onThinkingDelta("hmm");
        listener.onTextDelta("partial");
        throw new IllegalStateException("a provider bug");
    }

    @Test
    void aProviderBugWhileStreamingShowsTheBrokenReplyLiveAndReopened() throws Exception {
        script.add(InternalErrorsReopenedAsLiveTest::breakAfterPartial);
        List<String> live = liveRows();

        assertThat(live.get(1))
                .startsWith("FAILED | local/test-model | Something went wrong inside Rebound")
                .contains("partial");
        assertThat(reopenedRows()).isEqualTo(live);
    }

    @Test
    void aProviderBugInARetryShowsTheChainsEndLiveAndReopened() throws Exception {
        script.add((r, l) -> serviceUnavailable(r));
        script.add(InternalErrorsReopenedAsLiveTest::breakAfterPartial);
        List<String> live = liveRows();

        assertThat(live.get(1)).startsWith("FAILED | local/test-model | Retry failed after 1 attempt");
        assertThat(reopenedRows()).isEqualTo(live);
    }

    private Path file;

    private List<String> liveRows() throws Exception {
        SessionJournal journal = SessionJournal.create(dir, "s-1", 1, null);
        file = journal.file();
        ChatProvider provider = (request, listener, control) -> script.poll().apply(request, listener);
        RetryEngine engine = RetryEngine.builder()
                .settings(() -> RetrySettings.DEFAULTS)
                .clock(Clock.systemUTC())
                .random(new java.util.Random(7))
                .timer(immediately())
                .build();
        try (ChatSession session = ChatSession.builder()
                        .sessionId("s-1")
                        .settings(() -> SETTINGS)
                        .providers(api -> Optional.of(provider))
                        .retryEngine(engine)
                        .historySink(new JournalHistorySink(journal, problem -> {}))
                        .sessionFile(file)
                        .model(MODEL)
                        .build();
                ChatViewModel chat = chat(session)) {
            chat.send("Hi");
            fx.runUntil(
                    () -> chat.state() == ChatViewModel.State.IDLE
                            && chat.items().size() >= 3,
                    WAIT);
            return describe(chat.items());
        }
    }

    private List<String> reopenedRows() throws Exception {
        var restored = SessionRestorer.restore(new SessionLoader().load(file), SETTINGS, MODEL);
        try (ChatSession session = ChatSession.builder()
                        .settings(() -> SETTINGS)
                        .providers(api -> Optional.empty())
                        .restore(restored)
                        .model(MODEL)
                        .build();
                ChatViewModel chat = chat(session)) {
            return describe(chat.items());
        }
    }

    private ChatViewModel chat(ChatSession session) {
        return new ChatViewModel(
                session,
                List.of(),
                fx,
                Runnable::run,
                Clock.systemUTC(),
                ZoneOffset.UTC,
                new ManualTicker(),
                new ModelNames(() -> SETTINGS));
    }

    private static RetryTimer immediately() {
        return delayMs -> new RetryTimer.Wait() {
            @Override
            public RetryTimer.Wake await() {
                return RetryTimer.Wake.ELAPSED;
            }

            @Override
            public void cancel() {}

            @Override
            public void fireNow() {}
        };
    }

    private static List<String> describe(List<ChatItem> items) {
        return items.stream()
                .map(item -> switch (item) {
                    case AssistantItem a ->
                        a.status() + " | " + a.modelProperty().get() + " | "
                                + a.errorProperty().get() + " | "
                                + a.detailProperty().get() + " | " + a.text() + " | " + a.thinking();
                    default -> item.toString();
                })
                .toList();
    }
}
