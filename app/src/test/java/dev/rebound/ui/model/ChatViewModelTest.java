package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import dev.rebound.session.SessionFactory;
import dev.rebound.ui.Overloaded;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chat's view-models on the real session core against a loopback server, without a toolkit or a robot. */
class ChatViewModelTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private final FxQueue fx = new FxQueue();
    private final ManualTicker ticker = new ManualTicker();
    private DesktopHarness harness;
    private SessionFactory.Opened opened;
    private ChatViewModel chat;

    private void open(String retry) throws Exception {
        server.start();
        harness = DesktopHarness.start(configDir, server.url("/v1").toString(), retry);
        opened = harness.context(null).sessions().create();
        chat = new ChatViewModel(
                opened.session(),
                List.of(),
                fx,
                Runnable::run,
                Clock.systemUTC(),
                ZoneOffset.UTC,
                ticker,
                new ModelNames(harness.context(null).settings()::current));
    }

    @AfterEach
    void close() throws Exception {
        if (chat != null) {
            chat.close();
            opened.session().close();
        }
        if (harness != null) {
            harness.close();
        }
        server.close();
    }

    private AssistantItem reply() {
        return chat.items().stream()
                .filter(AssistantItem.class::isInstance)
                .map(AssistantItem.class::cast)
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    private boolean hasReply() {
        return chat.items().stream().anyMatch(AssistantItem.class::isInstance);
    }

    @Test
    void aSentDraftBecomesAPromptRowAndAStreamedReply() throws Exception {
        open("{}");
        server.enqueue(Sse.reply("Hello ", "**world**"));

        chat.composer().draftProperty().set("  Hi there  ");
        assertThat(chat.composer().send()).isTrue();

        assertThat(chat.composer().draftProperty().get()).isEmpty();
        assertThat(chat.composer().runningProperty().get()).isTrue();
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(chat.items().getFirst()).isEqualTo(new UserItem("Hi there"));
        assertThat(reply().text().toString()).isEqualTo("Hello **world**");
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.DONE);
        assertThat(reply().modelProperty().get()).isEqualTo(DesktopHarness.MODEL);
    }

    @Test
    void aLongReplyIsShownAsOneRowPerPartAndARestartFoldsThemBack() throws Exception {
        open("{}");
        String text = AssistantItemTest.longReply();
        List<String> chunks = new java.util.ArrayList<>();
        for (int i = 0; i < text.length(); i += 50) {
            chunks.add(text.substring(i, Math.min(text.length(), i + 50)));
        }
        server.enqueue(Sse.reply(chunks.toArray(String[]::new)));

        chat.send("Write a lot");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        AssistantItem reply = reply();
        assertThat(reply.partCount()).isGreaterThan(1);
        List<ChatRow> expected = new java.util.ArrayList<>(List.of(new UserItem("Write a lot")));
        for (int i = 0; i < reply.partCount(); i++) {
            expected.add(new ReplyPart(reply, i));
        }
        assertThat(chat.rows()).isEqualTo(expected);
        assertThat(((ReplyPart) chat.rows().getLast()).last()).isTrue();
        assertReopenedAsLive();

        NoticeItem notice = new NoticeItem(NoticeItem.Level.INFO, "after the reply");
        chat.items().add(notice);
        reply.restart("again", null);

        assertThat(chat.rows()).containsExactly(new UserItem("Write a lot"), new ReplyPart(reply, 0), notice);
    }

    @Test
    void theModelsReasoningIsKeptBesideTheReplyAndComesBackWhenTheChatIsReopened() throws Exception {
        open("{}");
        server.enqueue(new mockwebserver3.MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(Sse.reasoning("First, ") + Sse.reasoning("think.") + Sse.chunk("The answer.") + Sse.finish())
                .build());

        chat.send("Why?");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(reply().thinking().toString()).isEqualTo("First, think.");
        assertThat(reply().thinkingLengthProperty().get()).isEqualTo(13);
        assertThat(reply().text().toString()).isEqualTo("The answer.");

        ChatViewModel reopened = new ChatViewModel(
                opened.session(),
                List.of(),
                fx,
                Runnable::run,
                Clock.systemUTC(),
                ZoneOffset.UTC,
                ticker,
                new ModelNames(harness.context(null).settings()::current));
        AssistantItem restored = (AssistantItem) reopened.items().get(1);
        assertThat(restored.thinking().toString()).isEqualTo("First, think.");
        reopened.close();
        assertReopenedAsLive();
    }

    @Test
    void aBlankDraftIsNotSent() throws Exception {
        open("{}");
        chat.composer().draftProperty().set("   \n ");

        assertThat(chat.composer().canSendProperty().get()).isFalse();
        assertThat(chat.composer().send()).isFalse();
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void stopDuringARetryWaitEndsTheReplyAsStoppedAlsoWhenReopened() throws Exception {
        open("{}");
        server.enqueue(Overloaded.response("retry-after", "30"));
        chat.send("Hi");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.RETRY_WAITING, WAIT);

        chat.stop();

        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.STOPPED);
        assertThat(recordLine()).startsWith("Stopped · ").endsWith(" · overloaded (529)");
        assertReopenedAsLive();
    }

    @Test
    void aScheduledRetryShowsTheBannerAndCancelEndsTheReplyAsCancelledAlsoWhenReopened() throws Exception {
        open("{}");
        server.enqueue(Overloaded.response("retry-after", "30"));
        chat.send("Hi");

        fx.runUntil(() -> chat.state() == ChatViewModel.State.RETRY_WAITING, WAIT);
        assertThat(chat.banner().state()).isEqualTo(RetryBannerViewModel.State.WAITING);
        assertThat(chat.banner().headlineProperty().get()).startsWith("Retrying (1/10) in ");
        assertThat(chat.banner().summaryProperty().get())
                .isEqualTo("Provider unavailable · HTTP 529 · " + DesktopHarness.MODEL);
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.RETRYING);

        assertThat(chat.cancelRetry()).isTrue();
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(chat.banner().state()).isEqualTo(RetryBannerViewModel.State.HIDDEN);
        assertThat(ticker.active()).isZero();
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.CANCELLED);
        assertThat(reply().errorProperty().get()).isEqualTo("Retry cancelled");
        assertThat(reply().detailProperty().get()).contains("Overloaded");
        assertThat(reply().canRetry()).isTrue();
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(recordLine()).startsWith("Retry cancelled · ").endsWith(" · overloaded (529)");
        assertThat(chat.recordText()
                        .timeline(reply().retryRecordProperty().get())
                        .getFirst()
                        .decision())
                .isEqualTo("a retry was due after 30 s; you cancelled it");
        assertReopenedAsLive();
    }

    @Test
    void cancelRetryLeavesTheSessionCallToTheBackgroundExecutor() throws Exception {
        server.start();
        harness = DesktopHarness.start(configDir, server.url("/v1").toString(), "{}");
        opened = harness.context(null).sessions().create();
        java.util.Queue<Runnable> background = new java.util.concurrent.ConcurrentLinkedQueue<>();
        chat = new ChatViewModel(
                opened.session(),
                List.of(),
                fx,
                background::add,
                Clock.systemUTC(),
                ZoneOffset.UTC,
                ticker,
                new ModelNames(harness.context(null).settings()::current));
        background.forEach(Runnable::run);
        background.clear();
        server.enqueue(Overloaded.response("retry-after", "30"));
        chat.send("Hi");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.RETRY_WAITING, WAIT);
        background.forEach(Runnable::run);
        background.clear();

        assertThat(chat.cancelRetry()).isTrue();

        assertThat(opened.session().retryStatus().waiting())
                .as("nothing was asked of the session yet")
                .isTrue();
        background.forEach(Runnable::run);
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.CANCELLED);
    }

    @Test
    void cancelRetryAsksTheLiveSessionAndDoesNothingWhenNoRetryWaits() throws Exception {
        open("{}");

        assertThat(chat.cancelRetry()).isFalse();
    }

    @Test
    void anExhaustedChainSaysHowManyAttemptsFailedAndWhyAlsoWhenReopened() throws Exception {
        open("{\"maxRetries\": 2, \"baseDelayMs\": 1}");
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        chat.send("Hi");

        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(chat.items()).filteredOn(AssistantItem.class::isInstance).hasSize(1);
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.FAILED);
        assertThat(reply().errorProperty().get())
                .startsWith("Retry failed after 2 attempts: ")
                .contains("Overloaded");
        assertThat(chat.banner().state()).isEqualTo(RetryBannerViewModel.State.HIDDEN);
        assertThat(recordLine()).matches("Failed after 2 retries · [0-9.]+ m?s · overloaded \\(529\\)");
        assertThat(chat.recordText().timeline(reply().retryRecordProperty().get()))
                .extracting(RetryRecordText.Line::decision)
                .containsExactly("retried after 1 ms (backoff)", "retried after 2 ms (backoff)", "", "");
        assertReopenedAsLive();
    }

    @Test
    void aFailFastOnTheFirstFailureSaysWhatHappenedNotAfterZeroAttemptsAlsoWhenReopened() throws Exception {
        open("{}");
        server.enqueue(new mockwebserver3.MockResponse.Builder()
                .code(429)
                .addHeader("Content-Type", "application/json")
                .addHeader("retry-after", "86400")
                .body("{\"error\":{\"message\":\"Rate limit exceeded\",\"type\":\"rate_limit_error\"}}")
                .build());
        chat.send("Hi");

        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.FAILED);
        assertThat(reply().errorProperty().get())
                .isEqualTo("Not retried: the provider asked for a 24 h wait, more "
                        + "than the 5 min allowed (Settings → Retry). 429 Too Many Requests: Rate limit exceeded "
                        + "(type: rate_limit_error)");
        assertReopenedAsLive();
    }

    /** The chat as a reopened window shows it: the session file read back by a new session. */
    private List<ChatItem> reopenedItems() throws Exception {
        return reopened(chat -> List.copyOf(chat.items()));
    }

    /** Reopens the chat from its file in a new view-model, reads {@code what} off it, and closes it again. */
    private <T> T reopened(java.util.function.Function<ChatViewModel, T> what) throws Exception {
        SessionFactory.Opened again =
                harness.context(null).sessions().resume(opened.session().sessionFile());
        ChatViewModel reopened = new ChatViewModel(
                again.session(),
                List.of(),
                fx,
                Runnable::run,
                Clock.systemUTC(),
                ZoneOffset.UTC,
                ticker,
                new ModelNames(harness.context(null).settings()::current));
        try {
            return what.apply(reopened);
        } finally {
            reopened.close();
            again.session().close();
        }
    }

    private static String describe(List<ChatItem> items) {
        return items.stream()
                .map(item -> switch (item) {
                    case AssistantItem a ->
                        a.status() + " | " + a.modelProperty().get() + " | "
                                + a.errorProperty().get() + " | "
                                + a.detailProperty().get() + " | " + a.text() + " | " + a.thinking() + " | "
                                + a.partCount() + " | " + record(a) + " | "
                                + UsageText.of(a.usageProperty().get());
                    default -> item.toString();
                })
                .toList()
                .toString();
    }

    private static final RetryRecordText WORDS =
            new RetryRecordText(new ModelNames(() -> dev.rebound.settings.Settings.DEFAULTS), ZoneOffset.UTC);

    /** A reply's retry record as its line, timeline and diagnostics say it; "-" for none. */
    private static String record(AssistantItem reply) {
        RetryRecord record = reply.retryRecordProperty().get();
        return record == null
                ? "-"
                : WORDS.summary(record) + " " + WORDS.timeline(record) + " " + WORDS.diagnostics(record);
    }

    /** The reply's record line, or null when it has none. */
    private String recordLine() {
        RetryRecord record = reply().retryRecordProperty().get();
        return record == null ? null : chat.recordText().summary(record);
    }

    /** The rows of the live chat are the rows of the same chat reopened from its file. */
    private void assertReopenedAsLive() throws Exception {
        assertThat(describe(reopenedItems()))
                .as("the same rows, in the same order, when the chat is reopened")
                .isEqualTo(describe(chat.items()));
    }

    @Test
    void retriesThatEndInAnAnswerShowOneReplyRowLiveAndReopened() throws Exception {
        open("{\"baseDelayMs\": 10}");
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("Third ", "time"));
        chat.send("Hi");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(chat.items()).hasSize(2);
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.DONE);
        assertThat(reply().text().toString()).isEqualTo("Third time");
        assertThat(recordLine()).matches("Recovered after 2 retries · [0-9.]+ m?s · overloaded \\(529\\)");
        assertReopenedAsLive();
    }

    @Test
    void aFallbackShowsTheSameRowsLiveAndReopened() throws Exception {
        fallBack();

        assertThat(chat.items()).hasSize(3);
        assertThat(recordLine())
                .startsWith("Answered by local/other-model (fallback from " + DesktopHarness.MODEL + ") · 1 retry · ");
        assertReopenedAsLive();
    }

    @Test
    void aRevertToThePrimaryShowsItsNoticeBeforeThePromptLiveAndReopened() throws Exception {
        open("{\"fallbackChains\": {\"default\": [\"local/other-model\"]}}");
        server.enqueue(Overloaded.response("retry-after", "1"));
        server.enqueue(Sse.reply("From the fallback"));
        chat.send("Hi");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        Thread.sleep(1_200); // the primary's cooldown (the provider's retry-after: 1 s) runs out
        server.enqueue(Sse.reply("From the primary again"));
        chat.send("Again");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(chat.items().stream().map(Object::toString).toList().toString())
                .contains("Back on " + DesktopHarness.MODEL);
        assertThat(reply().modelProperty().get()).isEqualTo(DesktopHarness.MODEL);
        assertReopenedAsLive();
    }

    @Test
    void aRefusalWithNoFallbackShowsTheSameRowsLiveAndReopened() throws Exception {
        open("{}");
        server.enqueue(new mockwebserver3.MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body("data: {\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I can't help with that.\"},"
                        + "\"finish_reason\":null}]}\n\n"
                        + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                        + "data: [DONE]\n\n")
                .build());
        chat.send("Something forbidden");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(hasReply()).isTrue();
        assertReopenedAsLive();
    }

    @Test
    void aContextOverflowShowsTheFailureAndItsAdviceLiveAndReopened() throws Exception {
        open("{}");
        server.enqueue(new mockwebserver3.MockResponse.Builder()
                .code(400)
                .addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens. However, "
                        + "your messages resulted in 130532 tokens. Please reduce the length of the messages.\","
                        + "\"type\":\"invalid_request_error\",\"param\":\"messages\","
                        + "\"code\":\"context_length_exceeded\"}}")
                .build());
        chat.send("A very long prompt");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(reply().status()).isEqualTo(AssistantItem.Status.FAILED);
        assertThat(chat.items()).anyMatch(NoticeItem.class::isInstance);
        assertReopenedAsLive();
    }

    @Test
    void aReopenedChatStillSaysTheKeyWasSwitched() throws Exception {
        java.nio.file.Files.writeString(configDir.resolve("credentials.json"), """
                { "local": [ { "label": "a", "apiKey": "sk-a-0000" }, { "label": "b", "apiKey": "sk-b-1111" } ] }
                """);
        open("{}");
        server.enqueue(new mockwebserver3.MockResponse.Builder()
                .code(429)
                .addHeader("Content-Type", "application/json")
                .addHeader("retry-after", "1800")
                .body("{\"type\":\"error\",\"error\":{\"type\":\"usage_limit_error\",\"message\":"
                        + "\"You've hit your usage limit for this plan.\"}}")
                .build());
        server.enqueue(Sse.reply("From key b"));
        chat.send("Hi");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        NoticeItem switched =
                new NoticeItem(NoticeItem.Level.WARNING, "Switched local from key \"a\" to \"b\" after a usage limit.");
        assertThat(chat.items()).contains(switched);
        assertThat(recordLine())
                .startsWith("Recovered after 1 retry · ")
                .endsWith(" · usage limit (429) · switched key");
        assertThat(chat.recordText().diagnostics(reply().retryRecordProperty().get()))
                .contains("| a |", "| b |", "credential_switch")
                .doesNotContain("sk-a-0000", "sk-b-1111");

        assertReopenedAsLive();
    }

    @Test
    void stopKeepsTheTextReceivedAndSaysStoppedAlsoWhenReopened() throws Exception {
        open("{}");
        String first = Sse.chunk("The first words");
        server.enqueue(new mockwebserver3.MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(first + Sse.chunk(" and more") + Sse.finish())
                .throttleBody(first.length(), 10, TimeUnit.SECONDS)
                .build());
        chat.send("Hi");
        fx.runUntil(() -> hasReply() && reply().text().length() > 0, WAIT);

        chat.stop();

        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.STOPPED);
        assertThat(reply().errorProperty().get())
                .as("a plain Stop needs no reason")
                .isNull();
        assertThat(reply().text().toString()).isEqualTo("The first words");
        assertReopenedAsLive();
    }

    @Test
    void theManualRetryOfAFailedReplySendsItsPromptAgain() throws Exception {
        open("{\"enabled\": false}");
        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("Second time lucky"));
        chat.send("Try me");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        AssistantItem failed = reply();
        assertThat(failed.canRetry()).isTrue();
        server.takeRequest(1, TimeUnit.SECONDS);

        assertThat(chat.retry(failed)).isTrue();

        fx.runUntil(
                () -> chat.state() == ChatViewModel.State.IDLE && reply().status() == AssistantItem.Status.DONE, WAIT);
        assertThat(reply().text().toString()).isEqualTo("Second time lucky");
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getBody().utf8()).contains("Try me");
    }

    /** A turn whose model is overloaded and whose fallback answers. */
    private void fallBack() throws Exception {
        open("{\"fallbackChains\": {\"default\": [\"local/other-model\"]}}");
        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("From the fallback"));
        chat.send("Hi");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
    }

    @Test
    void anOverloadedModelFallsBackWithANoticeAndTheChipNamesBothModels() throws Exception {
        fallBack();

        assertThat(reply().text().toString()).isEqualTo("From the fallback");
        assertThat(reply().modelProperty().get()).isEqualTo("local/other-model");
        assertThat(chat.items())
                .contains(new NoticeItem(
                        NoticeItem.Level.WARNING,
                        "Switched to local/other-model: " + DesktopHarness.MODEL + " was unavailable."));
        assertThat(chat.fallbackChipProperty().get())
                .matches("Fallback: local/test-model → local/other-model · primary back at \\d\\d:\\d\\d");
        assertThat(chat.modelProperty().get().selector()).isEqualTo("local/other-model");
    }

    @Test
    void aReopenedChatWordsTheFallbackNoticeAsTheLiveOneDid() throws Exception {
        fallBack();
        List<ChatItem> live =
                chat.items().stream().filter(NoticeItem.class::isInstance).toList();

        try (ChatViewModel reopened = new ChatViewModel(
                opened.session(),
                List.of(),
                fx,
                Runnable::run,
                Clock.systemUTC(),
                ZoneOffset.UTC,
                ticker,
                new ModelNames(harness.context(null).settings()::current))) {
            assertThat(live).hasSize(1);
            assertThat(reopened.items().stream()
                            .filter(NoticeItem.class::isInstance)
                            .toList())
                    .isEqualTo(live);
        }
    }

    /** Sends, and returns once the wait ended and the retry's request reached the server (its answer is delayed). */
    private void sendUntilTheRetriedRequestIsInFlight() throws Exception {
        chat.send("Hi");
        fx.runUntil(() -> chat.banner().state() == RetryBannerViewModel.State.RETRYING, WAIT);
        assertThat(server.takeRequest(10, TimeUnit.SECONDS)).isNotNull();
        assertThat(server.takeRequest(10, TimeUnit.SECONDS)).isNotNull();
    }

    @Test
    void cancelWhileTheRetriedRequestRunsEndsTheChainWhenThatRequestFailsToo() throws Exception {
        open("{}");
        server.enqueue(Overloaded.response("retry-after", "1"));
        server.enqueue(Overloaded.response()
                .newBuilder()
                .headersDelay(1500, TimeUnit.MILLISECONDS)
                .build());
        server.enqueue(Sse.reply("must not be asked for"));
        sendUntilTheRetriedRequestIsInFlight();

        assertThat(chat.cancelRetry()).isTrue();
        fx.runUntil(() -> !chat.banner().cancellableProperty().get(), WAIT);
        assertThat(chat.banner().headlineProperty().get()).startsWith("Retrying (1/10)… Cancelled");

        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.CANCELLED);
        assertThat(reply().errorProperty().get()).isEqualTo("Retry cancelled");
        assertThat(server.takeRequest(500, TimeUnit.MILLISECONDS)).isNull();
        assertThat(server.getRequestCount()).isEqualTo(2);
        assertReopenedAsLive();
    }

    @Test
    void cancelWhileTheRetriedRequestRunsKeepsTheReplyThatRequestBrings() throws Exception {
        open("{}");
        server.enqueue(Overloaded.response("retry-after", "1"));
        server.enqueue(Sse.reply("Kept **as** read")
                .newBuilder()
                .headersDelay(1500, TimeUnit.MILLISECONDS)
                .build());
        sendUntilTheRetriedRequestIsInFlight();

        assertThat(chat.cancelRetry()).isTrue();

        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(reply().status()).isEqualTo(AssistantItem.Status.DONE);
        assertThat(reply().text().toString()).isEqualTo("Kept **as** read");
        assertThat(chat.items()).filteredOn(AssistantItem.class::isInstance).hasSize(1);
        assertReopenedAsLive();
    }

    @Test
    void closingReleasesTheSessionSubscription() throws Exception {
        open("{}");
        server.enqueue(Sse.reply("unseen"));
        chat.close();

        opened.session().prompt("Hi", null);
        opened.session().idle().get(10, TimeUnit.SECONDS);
        fx.drain();

        assertThat(hasReply()).isFalse();
    }

    private List<String> texts() {
        return chat.items().stream()
                .map(item -> switch (item) {
                    case UserItem u -> "you: " + u.text();
                    case AssistantItem a -> "reply: " + a.text();
                    case NoticeItem n -> "notice: " + n.text();
                })
                .toList();
    }

    @Test
    void regenerateReplacesTheLastReplyLiveAndReopenedAndTheFileKeepsTheOldOne() throws Exception {
        open("{\"baseDelayMs\": 10}");
        server.enqueue(Sse.reply("First"));
        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("Second"));
        server.enqueue(Sse.reply("Third"));
        chat.send("One");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        chat.send("Two");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(chat.lastReplyProperty().get()).isSameAs(reply());
        assertThat(reply().retryRecordProperty().get()).isNotNull();

        assertThat(chat.regenerate()).isTrue();
        assertThat(chat.canRewriteProperty().get())
                .as("not while the new reply runs")
                .isFalse();
        assertThat(chat.regenerate()).isFalse();
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(texts()).containsExactly("you: One", "reply: First", "you: Two", "reply: Third");
        assertThat(reply().retryRecordProperty().get())
                .as("the new reply needed no retry")
                .isNull();
        assertThat(chat.canRewriteProperty().get()).isTrue();
        assertThat(java.nio.file.Files.readString(opened.session().sessionFile()))
                .contains("Second", "\"rewind\"");
        assertReopenedAsLive();
    }

    @Test
    void anEditedPromptIsSentInPlaceOfTheLastOneLiveAndReopened() throws Exception {
        open("{}");
        server.enqueue(Sse.reply("A joke"));
        server.enqueue(Sse.reply("A pun"));
        chat.send("Tell me a joke");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(chat.composer().editLast()).isTrue();
        assertThat(chat.composer().draftProperty().get()).isEqualTo("Tell me a joke");
        assertThat(chat.composer().editingProperty().get()).isTrue();
        chat.composer().draftProperty().set("Tell me a pun");
        assertThat(chat.composer().send()).isTrue();
        assertThat(chat.composer().editingProperty().get()).isFalse();
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(texts()).containsExactly("you: Tell me a pun", "reply: A pun");
        server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getBody().utf8()).doesNotContain("joke");
        assertReopenedAsLive();
    }

    @Test
    void cancellingAnEditEmptiesTheComposerAndTheNextSendIsANewPrompt() throws Exception {
        open("{}");
        assertThat(chat.composer().editLast()).as("nothing to edit yet").isFalse();
        server.enqueue(Sse.reply("Hi there"));
        server.enqueue(Sse.reply("Again"));
        chat.send("Hello");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        chat.composer().editLast();
        chat.composer().cancelEdit();
        assertThat(chat.composer().draftProperty().get()).isEmpty();
        chat.composer().draftProperty().set("More");
        chat.composer().send();
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(texts()).containsExactly("you: Hello", "reply: Hi there", "you: More", "reply: Again");
    }

    @Test
    void aScreenReaderIsToldWhenRetriesAreScheduledWhenTheChainRecoversAndWhenItIsCancelled() throws Exception {
        open("{\"baseDelayMs\": 10}");
        List<String> said = new java.util.ArrayList<>();
        chat.announcementProperty().addListener((obs, old, now) -> said.add(now.text()));
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("Made it"));
        chat.send("Hi");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);

        assertThat(said)
                .containsExactly(
                        "The request failed: Provider unavailable · HTTP 529 · " + DesktopHarness.MODEL
                                + ". Retry 1 of 10 at once. Press Escape to cancel.",
                        "The request failed: Provider unavailable · HTTP 529 · " + DesktopHarness.MODEL
                                + ". Retry 2 of 10 at once. Press Escape to cancel.",
                        "Recovered after 2 retries; the reply is shown.");

        said.clear();
        server.enqueue(Overloaded.response("retry-after", "30"));
        chat.send("Again");
        fx.runUntil(() -> chat.state() == ChatViewModel.State.RETRY_WAITING, WAIT);
        chat.cancelRetry();
        fx.runUntil(() -> chat.state() == ChatViewModel.State.IDLE, WAIT);
        assertThat(said).hasSize(2).last().isEqualTo("Retry cancelled.");
        assertThat(said.getFirst()).endsWith("Retry 1 of 10 in 30 seconds. Press Escape to cancel.");

        Announcement announced = reopened(c -> c.announcementProperty().get());
        assertThat(announced).as("a reopened chat's history is not read out").isNull();
    }
}
