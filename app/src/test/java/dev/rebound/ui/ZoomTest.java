package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javafx.geometry.Bounds;
import javafx.geometry.VerticalDirection;
import javafx.scene.Node;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.TextArea;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Zooming the chat's text with the keys a browser uses, in the real window: the rendered text (prose, code, tables,
 * the reasoning line, the composer) grows and shrinks in steps within bounds, the rows are measured anew with the end
 * still followed, and the level is remembered in state/desktop.json for the next window.
 */
class ZoomTest {
    private static final String REPLY =
            "# Title\n\nSome **bold** prose.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```java\nint x = 1;\n```\n";

    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private final FxRobot robot = new FxRobot();
    private WindowFixture window;
    private boolean serverStarted;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        if (window != null) {
            window.close();
        }
        server.close();
    }

    private void openWindow() throws Exception {
        if (!serverStarted) {
            server.start();
            serverStarted = true;
        }
        window = WindowFixture.open(
                DesktopHarness.start(configDir, server.url("/v1").toString(), "{}"), configDir, (owner, tab) -> {});
    }

    private static <T> T fx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get();
    }

    private void replyWithProseTableAndCode() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(Sse.reasoning("Weigh it.") + Sse.chunk(REPLY) + Sse.finish())
                .build());
        robot.clickOn("#composer").write("Hi").type(KeyCode.ENTER);
        WindowFixture.waitFor(() -> robot.lookup(".md-code-text").tryQuery().isPresent()
                && robot.lookup("#send").query().isVisible());
        // A row added in the last pulse may not be styled yet (its text still at the default 13 px): style it now.
        fx(() -> {
            robot.lookup("#composer").query().getScene().getRoot().applyCss();
            return null;
        });
    }

    /**
     * The rendered font sizes of the reply's prose, heading, table, code, reasoning line and model name (a small
     * label), and of the composer.
     */
    private double[] sizes() throws Exception {
        return fx(() -> new double[] {
            textSize(".md-strong"),
            textSize(".md-h1 .md-text"),
            textSize(".md-table .md-text"),
            textSize(".md-code-text"),
            robot.lookup(".thinking-toggle").queryAs(Labeled.class).getFont().getSize(),
            robot.lookup(".message-assistant > .label")
                    .queryAs(Labeled.class)
                    .getFont()
                    .getSize(),
            robot.lookup("#composer").queryAs(TextArea.class).getFont().getSize()
        });
    }

    private double textSize(String query) {
        return robot.lookup(query).queryAs(Text.class).getFont().getSize();
    }

    private double proseSize() throws Exception {
        return fx(() -> textSize(".md-strong"));
    }

    private MenuItem menuItem(String id) throws Exception {
        return fx(() -> robot.lookup(".menu-bar").queryAs(MenuBar.class).getMenus().stream()
                .flatMap(menu -> menu.getItems().stream())
                .filter(item -> id.equals(item.getId()))
                .findFirst()
                .orElseThrow());
    }

    private String actualSizeText() throws Exception {
        MenuItem actual = menuItem("zoom-actual");
        return fx(actual::getText);
    }

    private void press(KeyCode... keys) {
        robot.push(keys);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void assertScaled(double[] before, double factor) throws Exception {
        WindowFixture.waitFor(() -> Math.abs(textSize(".md-strong") - before[0] * factor) < 0.01);
        double[] now = sizes();
        for (int i = 0; i < before.length; i++) {
            assertThat(now[i]).as("size %d at %s", i, factor).isCloseTo(before[i] * factor, withinPercentage(1));
        }
    }

    @Test
    void ctrlEqualsEnlargesTheRepliesTextCodeTablesAndComposerStepByStepAndCtrlZeroRestoresIt() throws Exception {
        openWindow();
        replyWithProseTableAndCode();
        double[] before = sizes();
        assertThat(actualSizeText()).isEqualTo("_Actual size");

        press(KeyCode.CONTROL, KeyCode.EQUALS);

        assertScaled(before, 1.10);
        assertThat(actualSizeText()).isEqualTo("_Actual size (now 110 %)");
        assertThat(fx(() -> robot.lookup("#zoom-badge").queryAs(Label.class).getText()))
                .isEqualTo("Zoom 110 %");
        press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.EQUALS);
        assertScaled(before, 1.25);
        press(KeyCode.CONTROL, KeyCode.ADD);
        assertScaled(before, 1.50);
        press(KeyCode.CONTROL, KeyCode.MINUS);
        assertScaled(before, 1.25);
        press(KeyCode.CONTROL, KeyCode.DIGIT0);
        assertScaled(before, 1.0);
        assertThat(actualSizeText()).isEqualTo("_Actual size");
        press(KeyCode.CONTROL, KeyCode.SUBTRACT);
        assertScaled(before, 0.9);
    }

    @Test
    void zoomStopsAtTwiceAndAtFourFifthsTheNormalSize() throws Exception {
        openWindow();
        replyWithProseTableAndCode();
        double before = proseSize();

        for (int i = 0; i < 8; i++) {
            press(KeyCode.CONTROL, KeyCode.EQUALS);
        }
        WindowFixture.waitFor(() -> Math.abs(textSize(".md-strong") - before * 2) < 0.01);
        assertThat(actualSizeText()).isEqualTo("_Actual size (now 200 %)");
        assertThat(fx(() -> menuItem("zoom-in").isDisable())).isTrue();
        press(KeyCode.CONTROL, KeyCode.EQUALS);
        press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.EQUALS);
        assertThat(proseSize()).as("no further than 200 %").isCloseTo(before * 2, within(0.01));
        assertThat(actualSizeText()).isEqualTo("_Actual size (now 200 %)");

        for (int i = 0; i < 12; i++) {
            press(KeyCode.CONTROL, KeyCode.MINUS);
        }
        WindowFixture.waitFor(() -> Math.abs(textSize(".md-strong") - before * 0.8) < 0.01);
        assertThat(actualSizeText()).isEqualTo("_Actual size (now 80 %)");
        assertThat(fx(() -> menuItem("zoom-out").isDisable())).isTrue();
    }

    @Test
    void theLevelIsWrittenToStateDesktopJsonAndTheNextWindowOpensAtIt() throws Exception {
        openWindow();
        double composerBefore = fx(() ->
                robot.lookup("#composer").queryAs(TextArea.class).getFont().getSize());
        robot.clickOn("#composer");

        press(KeyCode.CONTROL, KeyCode.EQUALS);
        press(KeyCode.CONTROL, KeyCode.EQUALS);

        Path state = configDir.resolve("state/desktop.json");
        WindowFixture.waitFor(
                () -> Files.exists(state) && Files.readString(state).contains("\"zoomPercent\": 125"));
        window.close();
        window = null;
        openWindow();
        assertThat(actualSizeText()).isEqualTo("_Actual size (now 125 %)");
        WindowFixture.waitFor(() -> Math.abs(robot.lookup("#composer")
                                .queryAs(TextArea.class)
                                .getFont()
                                .getSize()
                        - composerBefore * 1.25)
                < 0.01);
    }

    @Test
    void afterAZoomTheRowsAreMeasuredAnewTheEndStaysFollowedAndAReaderWhoScrolledUpKeepsTheirPlace() throws Exception {
        openWindow();
        for (int turn = 0; turn < 4; turn++) {
            List<String> pieces = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                pieces.add("Paragraph " + i + " of answer " + turn + ", long enough to wrap onto a second line in a "
                        + "window of this size, with **bold " + i + "** words.\n\n");
            }
            pieces.add("The end of answer " + turn + ".");
            server.enqueue(Sse.reply(pieces.toArray(String[]::new)));
            robot.clickOn("#composer").write("Question " + turn).type(KeyCode.ENTER);
            int done = turn;
            WindowFixture.waitFor(() ->
                    robot.lookup((Node n) -> n instanceof Text t && t.getText().contains("end of answer " + done))
                                    .tryQuery()
                                    .isPresent()
                            && robot.lookup("#send").query().isVisible());
        }
        WindowFixture.waitFor(this::atEnd);
        double lastRowBefore = fx(this::lastRowHeight);
        double shownBefore = fx(this::shownFraction);

        press(KeyCode.CONTROL, KeyCode.EQUALS);
        press(KeyCode.CONTROL, KeyCode.EQUALS);
        press(KeyCode.CONTROL, KeyCode.EQUALS);

        WindowFixture.waitFor(() -> lastRowHeight() > lastRowBefore * 1.3 && atEnd());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(this::atEnd)).as("the end is still followed").isTrue();
        assertThat(endTextOnScreen("end of answer 3")).isTrue();
        robot.moveTo(".chat-list").scroll(60, VerticalDirection.UP);
        robot.moveTo(".chat-list").scroll(60, VerticalDirection.DOWN);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(this::shownFraction))
                .as("once every row was in view, the scroll bar says the chat is about 1.5 times as tall")
                .isLessThan(shownBefore / 1.4);

        robot.moveTo(".chat-list").scroll(4, VerticalDirection.UP);
        WindowFixture.waitFor(() -> !atEnd());
        int top = fx(this::firstVisibleIndex);
        double depth = fx(this::topRowDepth);
        press(KeyCode.CONTROL, KeyCode.EQUALS);
        press(KeyCode.CONTROL, KeyCode.EQUALS);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(this::firstVisibleIndex))
                .as("a reader who scrolled up keeps the row at the top")
                .isEqualTo(top);
        assertThat(fx(this::topRowDepth)).as("as far into it").isCloseTo(depth, within(0.1));
        assertThat(fx(this::atEnd)).isFalse();
        press(KeyCode.CONTROL, KeyCode.DIGIT0);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> firstVisibleIndex() <= top
                        && flow().getLastVisibleCell().getIndex() >= top))
                .as("back at 100 %% the row is still in view (at the top, unless the rows after it no longer fill "
                        + "the list)")
                .isTrue();
    }

    private VirtualFlow<?> flow() {
        return (VirtualFlow<?>) robot.lookup(".chat-list .virtual-flow").query();
    }

    /** How much of the chat the list shows, by its scroll bar's thumb: the estimate of the whole chat's height. */
    private double shownFraction() {
        return robot.lookup(".chat-list .scroll-bar:vertical")
                .queryAs(ScrollBar.class)
                .getVisibleAmount();
    }

    /** How far into the top row the list's top is, as a fraction of the row's height. */
    private double topRowDepth() {
        IndexedCell<?> first = flow().getFirstVisibleCell();
        return first == null ? 0 : -first.getLayoutY() / first.getHeight();
    }

    private int firstVisibleIndex() {
        IndexedCell<?> first = flow().getFirstVisibleCell();
        return first == null ? -1 : first.getIndex();
    }

    /** The height of the chat's last row, laid out (it is in view at the end of the chat). */
    private double lastRowHeight() {
        IndexedCell<?> last = flow().getLastVisibleCell();
        return last == null ? 0 : last.getHeight();
    }

    /** Whether the last row is in view with its bottom at the bottom of the list. */
    private boolean atEnd() {
        VirtualFlow<?> flow = flow();
        int rows = robot.lookup(".chat-list").queryAs(ListView.class).getItems().size();
        IndexedCell<?> last = flow.getLastVisibleCell();
        double viewport = flow.getHeight() - flow.snappedTopInset() - flow.snappedBottomInset();
        return last != null
                && last.getIndex() == rows - 1
                && last.getLayoutY() + last.getHeight() <= viewport + 2
                && last.getLayoutY() + last.getHeight() >= viewport - 2;
    }

    private boolean endTextOnScreen(String text) throws Exception {
        return fx(() -> {
            Node list = robot.lookup(".chat-list").query();
            Bounds shown = list.localToScreen(list.getBoundsInLocal());
            return robot
                    .lookup((Node n) -> n instanceof Text t && t.getText().contains(text) && t.isVisible())
                    .queryAll()
                    .stream()
                    .anyMatch(n -> shown.contains(n.localToScreen(n.getBoundsInLocal())));
        });
    }
}
