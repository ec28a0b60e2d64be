package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import dev.rebound.history.SessionSummary;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real chat window on the real session core against a loopback server, driven by a robot as a person would:
 * type and press Enter, click Cancel Retry, press Esc. Runs on JavaFX's headless platform (see the surefire
 * configuration), so it needs no display.
 */
class ChatWindowTest {
    /** The wait of a retry the tests cancel: short, so they can wait past it to check nothing more is sent. */
    private static final String RETRY_AFTER = "3";

    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private final FxRobot robot = new FxRobot();
    private WindowFixture window;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private void openWindow(String retry) throws Exception {
        server.start();
        window = WindowFixture.open(
                DesktopHarness.start(configDir, server.url("/v1").toString(), retry), configDir, (owner, tab) -> {});
    }

    @AfterEach
    void close() throws Exception {
        if (window != null) {
            window.close();
        }
        server.close();
    }

    private static void waitFor(Callable<Boolean> condition) throws Exception {
        WindowFixture.waitFor(condition);
    }

    private void sendPrompt(String text) {
        robot.clickOn("#composer").write(text).type(KeyCode.ENTER);
    }

    private boolean bannerShown() {
        return robot.lookup("#retry-banner").tryQuery().map(Node::isVisible).orElse(false);
    }

    private boolean shows(String text) {
        return robot.lookup((Node n) -> n instanceof Label l && text.equals(l.getText()) && l.isVisible())
                .tryQuery()
                .isPresent();
    }

    /** The text of a code block's runs, joined. */
    static String codeText(Node codeBody) {
        StringBuilder text = new StringBuilder();
        codeBody.lookupAll(".md-code-text").forEach(run -> text.append(((Text) run).getText()));
        return text.toString();
    }

    private boolean idle() {
        return robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false);
    }

    private String headline() {
        return robot.lookup("#retry-headline").queryAs(Label.class).getText();
    }

    @Test
    void enterSendsThePromptAndTheStreamedReplyIsRenderedAsMarkdown() throws Exception {
        openWindow("{}");
        server.enqueue(Sse.reply(
                "# Plan\n\n",
                "Use **bold** and `code`.\n\n",
                "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
                "```java\nint x = 1;\n```\n",
                "\nSee [docs](https://example.com)."));

        sendPrompt("Hello there");

        waitFor(() -> robot.lookup(".md-strong").tryQuery().isPresent()
                && robot.lookup(".md-table").tryQuery().isPresent()
                && robot.lookup(".md-link").tryQuery().isPresent()
                && idle());
        assertThat(robot.lookup(".md-strong").queryAs(Text.class).getText()).isEqualTo("bold");
        assertThat(robot.lookup(".md-h1 .md-text").queryAs(Text.class).getText())
                .isEqualTo("Plan");
        assertThat(codeText(robot.lookup(".md-code-body").query())).isEqualTo("int x = 1;");
        assertThat(robot.lookup(".md-copy").tryQuery()).isPresent();
        assertThat(robot.lookup("#composer").queryTextInputControl().getText()).isEmpty();
        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(request.getBody().utf8()).contains("Hello there");
    }

    @Test
    void threeOverloadsShowTheBannerCountingDownThenTheReplyArrivesAndTheBannerGoes() throws Exception {
        openWindow("{\"baseDelayMs\": 10}");
        server.enqueue(Overloaded.response("retry-after", "2"));
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("Made **it**"));

        sendPrompt("Hi");

        waitFor(this::bannerShown);
        waitFor(() -> robot.lookup(".md-strong").tryQuery().isPresent() && !bannerShown() && idle());
        List<String> headlines = window.headlines();
        assertThat(headlines)
                .contains("Retrying (1/10) in 2s… (Esc to cancel)", "Retrying (1/10) in 1s… (Esc to cancel)");
        assertThat(headlines.indexOf("Retrying (1/10) in 1s… (Esc to cancel)"))
                .isGreaterThan(headlines.indexOf("Retrying (1/10) in 2s… (Esc to cancel)"));
        assertThat(server.getRequestCount()).isEqualTo(4);
    }

    @Test
    void anExhaustedChainLeavesTheReplySayingHowManyAttemptsFailed() throws Exception {
        openWindow("{\"maxRetries\": 2, \"baseDelayMs\": 10}");
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());

        sendPrompt("Hi");

        waitFor(() -> !bannerShown()
                && idle()
                && robot.lookup(".reply-error").tryQuery().isPresent());
        assertThat(robot.lookup(".reply-error").queryAs(Label.class).getText())
                .startsWith("Retry failed after 2 attempts: ")
                .contains("Overloaded");
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    /**
     * Waits past the time the cancelled retry was scheduled for (it was scheduled before the cancel, {@code
     * RETRY_AFTER} seconds ahead), so a retry that still ran would have reached the server.
     */
    private static void waitPastTheScheduledRetry() throws InterruptedException {
        Thread.sleep(Duration.ofSeconds(Long.parseLong(RETRY_AFTER)).plusMillis(500));
    }

    @Test
    void cancelRetryEndsTheChainAndNoFurtherRequestIsSent() throws Exception {
        openWindow("{}");
        server.enqueue(Overloaded.response("retry-after", RETRY_AFTER));
        server.enqueue(Sse.reply("must not be asked for"));

        sendPrompt("Hi");
        waitFor(this::bannerShown);
        assertThat(headline()).startsWith("Retrying (1/10) in ");
        robot.clickOn("#cancel-retry");

        waitFor(() -> !bannerShown() && shows("Retry cancelled") && idle());
        waitPastTheScheduledRetry();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void escWithTheFocusInTheComposerCancelsTheRetry() throws Exception {
        openWindow("{}");
        server.enqueue(Overloaded.response("retry-after", RETRY_AFTER));
        server.enqueue(Sse.reply("must not be asked for"));

        sendPrompt("Hi");
        waitFor(this::bannerShown);
        robot.clickOn("#composer").write("a draft");
        robot.type(KeyCode.ESCAPE);

        waitFor(() -> !bannerShown() && shows("Retry cancelled") && idle());
        assertThat(robot.lookup("#composer").queryTextInputControl().getText()).isEqualTo("a draft");
        waitPastTheScheduledRetry();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void escCancelsTheThirdRetryOfAChain() throws Exception {
        openWindow("{\"baseDelayMs\": 10}");
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response("retry-after", RETRY_AFTER));
        server.enqueue(Sse.reply("must not be asked for"));

        sendPrompt("Hi");
        waitFor(() -> bannerShown() && headline().startsWith("Retrying (3/10) in "));
        robot.type(KeyCode.ESCAPE);

        waitFor(() -> !bannerShown() && shows("Retry cancelled") && idle());
        waitPastTheScheduledRetry();
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void retryNowSendsTheNextRequestAtOnce() throws Exception {
        openWindow("{}");
        server.enqueue(Overloaded.response("retry-after", "30"));
        server.enqueue(Sse.reply("Right **away**"));

        sendPrompt("Hi");
        waitFor(this::bannerShown);
        assertThat(server.takeRequest(1, TimeUnit.SECONDS)).isNotNull();
        long clicked = System.nanoTime();
        robot.clickOn("#retry-now");

        assertThat(server.takeRequest(2, TimeUnit.SECONDS))
                .as("the retry, well before its 30 s")
                .isNotNull();
        assertThat(Duration.ofNanos(System.nanoTime() - clicked)).isLessThan(Duration.ofSeconds(2));
        waitFor(() -> robot.lookup(".md-strong").tryQuery().isPresent() && !bannerShown() && idle());
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void theWaitingLineGoesWithTheFirstTextWhileTheReplyStillStreams() throws Exception {
        openWindow("{}");
        String first = Sse.chunk("First words");
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(first + Sse.chunk(" and the rest") + Sse.finish())
                .throttleBody(first.length(), 3, TimeUnit.SECONDS)
                .build());

        sendPrompt("Hi");

        waitFor(() -> robot.lookup(
                        (Node n) -> n instanceof Text t && t.getText().contains("First words"))
                .tryQuery()
                .isPresent());
        assertThat(idle()).as("the reply is still streaming").isFalse();
        assertThat(shows("Waiting for the reply…")).isFalse();
    }

    @Test
    void aLongReplyStreamsIntoSeveralRowsAndTheListFollowsItsEnd() throws Exception {
        openWindow("{}");
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            chunks.add("Paragraph " + i + " of a long answer, with **bold " + i + "** words in it.\n\n");
        }
        chunks.add("The closing line.");
        server.enqueue(Sse.reply(chunks.toArray(String[]::new)));

        sendPrompt("Write a lot");

        waitFor(() -> idle()
                && robot.lookup((Node n) ->
                                n instanceof Text t && t.getText().contains("closing line") && t.isVisible())
                        .tryQuery()
                        .isPresent());
        assertThat(chatRows().size()).as("the prompt and the reply's parts").isGreaterThan(3);
        Node lastRow = robot.lookup(".message-cell").queryAll().stream()
                .filter(n -> n.lookup(".md-paragraph") != null
                        && ((ListCell<?>) n).getIndex() == chatRows().size() - 1)
                .findFirst()
                .orElseThrow();
        assertThat(lastRow.getStyleClass()).contains("reply-continued").doesNotContain("reply-continues");
        javafx.geometry.Bounds list = robot.lookup(".chat-list")
                .query()
                .localToScreen(robot.lookup(".chat-list").query().getBoundsInLocal());
        assertThat(lastRow.localToScreen(lastRow.getBoundsInLocal()).getMaxY())
                .as("the end is in view")
                .isLessThanOrEqualTo(list.getMaxY() + 1);
    }

    @Test
    void afterTheReaderScrollsUpTheGrowingReplyNoLongerPullsTheListDown() throws Exception {
        openWindow("{}");
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 120; i++) {
            body.append(Sse.chunk("Paragraph " + i + " of a long answer, with **bold " + i + "** words in it.\n\n"));
        }
        body.append(Sse.chunk("The closing line.")).append(Sse.finish());
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(body.toString())
                .throttleBody(2_000, 250, TimeUnit.MILLISECONDS)
                .build());

        sendPrompt("Write a lot");
        waitFor(() -> chatRows().size() >= 3);
        // The list's centre is read on the FX thread: TestFX's own query reads bounds from this thread, which raced the
        // list's layout while the reply grew (an IndexOutOfBoundsException inside Parent.updateCachedBounds).
        Node list = robot.lookup(".chat-list").query();
        javafx.geometry.Point2D centre = WaitForAsyncUtils.asyncFx(() -> {
                    javafx.geometry.Bounds bounds = list.localToScreen(list.getBoundsInLocal());
                    return new javafx.geometry.Point2D(bounds.getCenterX(), bounds.getCenterY());
                })
                .get();
        robot.moveTo(centre).scroll(15, javafx.geometry.VerticalDirection.UP);

        waitFor(this::idle);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(robot.lookup((Node n) -> n instanceof Text t
                                && t.getText().contains("closing line")
                                && t.isVisible()
                                && onScreen(n))
                        .tryQuery())
                .as("the end stays out of view")
                .isEmpty();
    }

    /** The bounds of the code's text in the code body (the text lies in a flow inside it). */
    private static javafx.geometry.Bounds inBody(Node body, Node code) {
        return body.sceneToLocal(code.localToScene(code.getBoundsInLocal()));
    }

    /** One notch of a mouse wheel turned up over the middle of {@code node}. */
    private static javafx.scene.input.ScrollEvent wheelUp(Node node) {
        javafx.geometry.Bounds bounds = node.localToScene(node.getBoundsInLocal());
        javafx.geometry.Bounds screen = node.localToScreen(node.getBoundsInLocal());
        return new javafx.scene.input.ScrollEvent(
                javafx.scene.input.ScrollEvent.SCROLL,
                bounds.getCenterX(),
                bounds.getCenterY(),
                screen.getCenterX(),
                screen.getCenterY(),
                false,
                false,
                false,
                false,
                false,
                false,
                0,
                40,
                0,
                40,
                javafx.scene.input.ScrollEvent.HorizontalTextScrollUnits.NONE,
                0,
                javafx.scene.input.ScrollEvent.VerticalTextScrollUnits.LINES,
                1,
                0,
                null);
    }

    /** Whether a node lies within the chat list's visible area. */
    private boolean onScreen(Node node) {
        Node list = robot.lookup(".chat-list").query();
        return list.localToScreen(list.getBoundsInLocal()).intersects(node.localToScreen(node.getBoundsInLocal()));
    }

    @Test
    void aLongCodeLineScrollsSidewaysAndAWheelOverTheCodeScrollsTheChat() throws Exception {
        openWindow("{}");
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            chunks.add("Paragraph " + i + " before the code, long enough to take a line or two of the chat.\n\n");
        }
        String longLine = "int x = " + "1 + ".repeat(100) + "1;";
        chunks.add("```java\n" + longLine + "\n```\n\nAfter the code.");
        server.enqueue(Sse.reply(chunks.toArray(String[]::new)));
        sendPrompt("Code please");
        waitFor(() -> idle() && robot.lookup(".md-code-body").tryQuery().isPresent());

        Node body = robot.lookup(".md-code-body").query();
        TextFlow code = robot.lookup(".md-code-flow").queryAs(TextFlow.class);
        assertThat(codeText(body)).isEqualTo(longLine);
        assertThat(code.getBoundsInLocal().getWidth())
                .as("one unwrapped line")
                .isGreaterThan(body.getLayoutBounds().getWidth());
        javafx.scene.control.ScrollBar sideways =
                robot.lookup(".md-code-body .scroll-bar:horizontal").queryAs(javafx.scene.control.ScrollBar.class);
        assertThat(sideways.isVisible()).as("a sideways scroll bar").isTrue();
        assertThat(sideways.getBoundsInParent().getMinY())
                .as("the bar is under the code, not over it")
                .isGreaterThanOrEqualTo(inBody(body, code).getMaxY() - 1);
        assertThat(body.getLayoutBounds().getHeight())
                .as("room for the code and the bar")
                .isGreaterThanOrEqualTo(code.getLayoutBounds().getHeight() + sideways.getHeight() - 1);
        robot.interact(() -> sideways.setValue(sideways.getMax()));
        assertThat(inBody(body, code).getMaxX())
                .as("the end of the line scrolled into view")
                .isCloseTo(body.getLayoutBounds().getWidth(), org.assertj.core.data.Offset.offset(2.0));

        javafx.scene.control.ScrollBar chatBar = robot.lookup(".chat-list .scroll-bar:vertical").queryAll().stream()
                .map(javafx.scene.control.ScrollBar.class::cast)
                .filter(Node::isVisible)
                .findFirst()
                .orElseThrow();
        double before = chatBar.getValue();
        // A wheel turned over the code: fired at the code's text, as the scene would deliver it.
        robot.interact(() -> javafx.event.Event.fireEvent(code, wheelUp(code)));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(chatBar.getValue()).as("the chat scrolled up").isLessThan(before);
    }

    @Test
    void theReasoningShowsAsAFoldedLineAboveTheReplyAndUnfoldsOnClick() throws Exception {
        openWindow("{}");
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(Sse.reasoning("Weigh the options. ")
                        + Sse.reasoning("Pick one.")
                        + Sse.chunk("**Done**.")
                        + Sse.finish())
                .build());

        sendPrompt("Decide");

        waitFor(() -> idle() && robot.lookup(".md-strong").tryQuery().isPresent());
        Node toggle = robot.lookup(".thinking-toggle").query();
        assertThat(((javafx.scene.control.Labeled) toggle).getText()).isEqualTo("▸ Thinking · 28 characters");
        assertThat(robot.lookup(".thinking-text").queryAs(Label.class).isVisible())
                .isFalse();

        robot.clickOn(toggle);

        waitFor(() -> robot.lookup(".thinking-text").queryAs(Label.class).isVisible());
        assertThat(robot.lookup(".thinking-text").queryAs(Label.class).getText())
                .isEqualTo("Weigh the options. Pick one.");
        assertThat(((javafx.scene.control.Labeled) toggle).getText()).startsWith("▾ Thinking");
    }

    @Test
    void ctrlNStartsANewEmptyChat() throws Exception {
        openWindow("{}");
        server.enqueue(Sse.reply("One"));
        sendPrompt("First chat");
        waitFor(() -> idle() && sessions().getItems().size() == 1 && shows("First chat"));

        robot.press(KeyCode.CONTROL).type(KeyCode.N).release(KeyCode.CONTROL);

        waitFor(() -> sessions().getItems().size() == 2 && chatRows().isEmpty());
    }

    /** The rows of the chat shown. */
    private List<?> chatRows() {
        return robot.lookup(".chat-list").queryAs(ListView.class).getItems();
    }

    @SuppressWarnings("unchecked")
    private ListView<SessionSummary> sessions() {
        return robot.lookup("#sessions").queryAs(ListView.class);
    }

    /** Selects a chat in the sidebar and lays the window out, as the next pulse would (its rows bind then). */
    private WeakReference<Node> show(int index) {
        sessions().getSelectionModel().select(index);
        window.stage().getScene().getRoot().applyCss();
        window.stage().getScene().getRoot().layout();
        Node pane = robot.lookup(".chat-pane").query();
        assertThat(pane.lookup(".md-strong")).as("the reply's row is made").isNotNull();
        return new WeakReference<>(pane);
    }

    @Test
    void switchingChatsLetsTheOldChatPanesBeCollected() throws Exception {
        openWindow("{}");
        server.enqueue(Sse.reply("Reply **one**"));
        server.enqueue(Sse.reply("Reply **two**"));
        sendPrompt("One");
        waitFor(() -> idle() && robot.lookup(".md-strong").tryQuery().isPresent());
        robot.press(KeyCode.CONTROL).type(KeyCode.N).release(KeyCode.CONTROL);
        waitFor(() -> sessions().getItems().size() == 2 && chatRows().isEmpty());
        sendPrompt("Two");
        waitFor(() -> idle()
                && chatRows().size() == 2
                && robot.lookup(".md-strong").tryQuery().isPresent());

        List<WeakReference<Node>> panes = new ArrayList<>();
        FxToolkit.setupFixture(() -> {
            for (int i = 0; i < 50; i++) {
                panes.add(show((i + 1) % 2));
            }
        });
        List<WeakReference<Node>> old = panes.subList(0, panes.size() - 1);

        for (int i = 0; i < 50 && old.stream().anyMatch(ref -> ref.get() != null); i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(old.stream().filter(ref -> ref.get() != null).count())
                .as("old chat panes still reachable")
                .isZero();
    }

    @Test
    void aCredentialSwitchIsToldInTheChat() throws Exception {
        Files.writeString(configDir.resolve("credentials.json"), """
                { "local": [ { "label": "a", "apiKey": "sk-a-0000" }, { "label": "b", "apiKey": "sk-b-1111" } ] }
                """);
        openWindow("{}");
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .addHeader("Content-Type", "application/json")
                .addHeader("retry-after", "1800")
                .body("{\"type\":\"error\",\"error\":{\"type\":"
                        + "\"usage_limit_error\",\"message\":\"You've hit your usage limit for this plan.\"}}")
                .build());
        server.enqueue(Sse.reply("From key **b**"));

        sendPrompt("Hi");

        waitFor(() -> idle() && robot.lookup(".md-strong").tryQuery().isPresent());
        assertThat(showsNotice("Switched local from key \"a\" to \"b\" after a usage limit."))
                .isTrue();
    }

    @Test
    void theFallbackAndItsRevertAreToldInTheChat() throws Exception {
        openWindow("{\"fallbackChains\": {\"default\": [\"local/other-model\"]}}");
        server.enqueue(Overloaded.response("retry-after", "1"));
        server.enqueue(Sse.reply("From the **fallback**"));
        server.enqueue(Sse.reply("Back on **mine**"));

        sendPrompt("Hi");
        waitFor(() -> idle() && robot.lookup(".md-strong").tryQuery().isPresent());
        assertThat(showsNotice("Switched to local/other-model: " + DesktopHarness.MODEL + " was unavailable."))
                .isTrue();
        assertThat(robot.lookup(".retry-record-toggle")
                        .queryAs(javafx.scene.control.Hyperlink.class)
                        .getText())
                .startsWith(
                        "▸ ↻ Answered by local/other-model (fallback from " + DesktopHarness.MODEL + ") · 1 retry · ")
                .endsWith(" · overloaded (529)");
        // The primary's cooldown (its retry-after) ends; the next turn goes back to it.
        Thread.sleep(1200);
        sendPrompt("Later");

        waitFor(() -> showsNotice("Back on " + DesktopHarness.MODEL + " (your model); local/other-model was a "
                        + "temporary fallback.")
                && idle());
        assertThat(robot.lookup(".retry-record-toggle").queryAllAs(javafx.scene.control.Hyperlink.class).stream()
                        .filter(link -> link.getParent().isVisible()))
                .as("the reply on the primary again needed no retry: it has no record line")
                .hasSize(1);
    }

    private boolean showsNotice(String text) {
        return robot.lookup((Node n) -> n instanceof Label l
                        && l.getStyleClass().contains("notice")
                        && l.getText().endsWith(text))
                .tryQuery()
                .isPresent();
    }

    @Test
    void aLongProviderErrorWrapsBesideTheBannerButtonsInsteadOfShorteningThem() throws Exception {
        openWindow("{}");
        String message = "Rate limit reached for gpt-4.1-mini in organization org-example on requests per min (RPM): "
                + "Limit 3, Used 3, Requested 1. Please try again in 30s. Visit the rate limits page to learn more.";
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .addHeader("Content-Type", "application/json")
                .addHeader("retry-after", "30")
                .body("{\"error\":{\"type\":\"requests\",\"code\":\"rate_limit_exceeded\",\"message\":\"" + message
                        + "\"}}")
                .build());

        sendPrompt("Hi");
        waitFor(this::bannerShown);
        WaitForAsyncUtils.waitForFxEvents();

        for (String id : List.of("#retry-now", "#cancel-retry")) {
            Button button = robot.lookup(id).queryAs(Button.class);
            double preferred =
                    WaitForAsyncUtils.asyncFx(() -> button.prefWidth(-1)).get();
            assertThat(button.getWidth()).as(id + " width").isGreaterThanOrEqualTo(preferred - 0.5);
        }
        robot.clickOn("#cancel-retry");
        waitFor(() -> !bannerShown() && idle());
    }
}
