package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.shape.LineTo;
import javafx.scene.shape.MoveTo;
import javafx.scene.shape.Path;
import javafx.scene.shape.PathElement;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Selecting the text of messages with the mouse and the keyboard in the real chat window (headless), and copying it:
 * what lands on the clipboard is checked exactly.
 */
class TextSelectionTest {
    @TempDir
    java.nio.file.Path configDir;

    private final MockWebServer server = new MockWebServer();
    private final FxRobot robot = new FxRobot();
    private final List<String> opened = new CopyOnWriteArrayList<>();
    private WindowFixture window;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @BeforeEach
    void openWindow() throws Exception {
        server.start();
        window = WindowFixture.open(
                DesktopHarness.start(configDir, server.url("/v1").toString(), "{}"),
                configDir,
                (owner, tab) -> {},
                opened::add);
        onFx(() -> {
            ClipboardContent nothing = new ClipboardContent();
            nothing.putString("");
            Clipboard.getSystemClipboard().setContent(nothing);
            return null;
        });
    }

    @AfterEach
    void close() throws Exception {
        window.close();
        server.close();
    }

    @Test
    void draggingOverPartOfAReplyAndPressingCtrlCCopiesExactlyThatPart() throws Exception {
        reply("The quick brown fox jumps over the lazy dog.");
        TextFlow flow = flowWith("quick brown");

        drag(at(flow, 4, true), at(flow, 18, false));
        copy();

        assertThat(clipboard()).isEqualTo("quick brown fox");
        assertThat(highlighted(flow)).as("the selection is painted").isTrue();
    }

    @Test
    void aSelectionFromAParagraphIntoAListItemCopiesBothWithANewlineBetween() throws Exception {
        reply("First paragraph here.\n\n- item one\n- item two\n");

        drag(at(flowWith("First paragraph"), 6, true), at(flowWith("item one"), 3, false));
        copy();

        assertThat(clipboard()).isEqualTo("paragraph here.\n• item");
        assertThat(highlighted(flowWith("item two"))).isFalse();
    }

    @Test
    void aSelectionFromAParagraphIntoCodeCopiesBothWithANewlineBetween() throws Exception {
        reply("Run this:\n\n```sh\nls -la\ncd /tmp\n```\n");

        drag(at(flowWith("Run this"), 4, true), at(flowWith("ls -la"), 1, false));
        copy();

        assertThat(clipboard()).isEqualTo("this:\nls");
    }

    @Test
    void aDoubleClickSelectsAWord() throws Exception {
        reply("The quick brown fox jumps.");
        TextFlow flow = flowWith("quick brown");

        robot.moveTo(at(flow, 12, true)).doubleClickOn(MouseButton.PRIMARY);
        copy();

        assertThat(clipboard()).isEqualTo("brown");
    }

    @Test
    void theRowsContextMenuCopiesTheSelectionAndAClickElsewhereClearsIt() throws Exception {
        reply("The quick brown fox jumps.");
        robot.moveTo(at(flowWith("quick brown"), 12, true)).doubleClickOn(MouseButton.PRIMARY);

        // The list may give the row a new cell at any layout: the flow is looked up again after each step.
        robot.moveTo(at(flowWith("quick brown"), 5, true)).clickOn(MouseButton.SECONDARY);
        Node copySelection = robot.lookup((Node n) -> n instanceof Label l
                        && "Copy selection".equals(l.getText().replace("_", "")))
                .query();
        robot.clickOn(copySelection);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(clipboard()).isEqualTo("brown");
        assertThat(highlighted(flowWith("quick brown")))
                .as("a right click keeps the selection")
                .isTrue();
        robot.clickOn(at(flowWith("quick brown"), 1, true));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(highlighted(flowWith("quick brown")))
                .as("a click in the text places it, selecting nothing")
                .isFalse();
    }

    @Test
    void thePromptIsSelectableToo() throws Exception {
        reply("Fine.");
        TextFlow prompt = flowWith("Say something");

        robot.moveTo(at(prompt, 5, true)).doubleClickOn(MouseButton.PRIMARY);
        copy();

        assertThat(clipboard()).isEqualTo("something");
    }

    @Test
    void aClickOnALinkOpensItWhileADragOverItSelectsWithoutOpening() throws Exception {
        reply("See [the docs](https://example.com/docs) now.");
        TextFlow flow = flowWith("See ");
        Hyperlink link = robot.lookup(".md-link").queryAs(Hyperlink.class);

        robot.clickOn(link);
        WindowFixture.waitFor(() -> opened.size() == 1);
        assertThat(opened).containsExactly("https://example.com/docs");

        Point2D onLink = onFx(() -> link.localToScreen(3, link.getHeight() / 2));
        drag(onLink, at(flow, 8, false));
        copy();

        assertThat(clipboard()).isEqualTo("the docs now");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(opened).as("the drag did not open the link").hasSize(1);
    }

    @Test
    void theSelectionSurvivesTheReplyStreamingOn() throws Exception {
        String first = Sse.chunk("Alpha beta gamma.\n\n");
        StringBuilder rest = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            rest.append(Sse.chunk("More text number " + i + " arrives.\n\n"));
        }
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(first + rest + Sse.finish())
                .throttleBody(first.length(), 700, TimeUnit.MILLISECONDS)
                .build());
        robot.clickOn("#composer").write("Say something").type(KeyCode.ENTER);
        WindowFixture.waitFor(() -> robot.lookup(
                        (Node n) -> n instanceof TextFlow f && flowText(f).contains("gamma"))
                .tryQuery()
                .isPresent());

        robot.moveTo(at(flowWith("Alpha beta"), 7, true)).doubleClickOn(MouseButton.PRIMARY);
        assertThat(idle()).as("the reply still streams").isFalse();
        WindowFixture.waitFor(this::idle);
        copy();

        assertThat(clipboard()).isEqualTo("beta");
        assertThat(highlighted(flowWith("Alpha beta"))).isTrue();
        assertThat(highlighted(flowWith("number 5"))).isFalse();
    }

    @Test
    void ctrlACopiesTheWholeReplyAcrossItsRowsAsPlainText() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 120; i++) {
            text.append("Paragraph ").append(i).append(" has **bold ").append(i).append("** words.\n\n");
        }
        text.append("The closing line.");
        reply(text.toString());
        ListView<?> list = robot.lookup(".chat-list").queryAs(ListView.class);
        assertThat(onFx(() -> list.getItems().size()))
                .as("a prompt and several parts")
                .isGreaterThan(3);
        // The list shows the reply's end: its first rows are not on screen, so they are read off screen.
        robot.clickOn(at(flowWith("The closing line"), 2, true));
        robot.press(KeyCode.CONTROL).type(KeyCode.A).release(KeyCode.CONTROL);
        copy();

        String copied = clipboard();
        assertThat(copied).startsWith("Paragraph 0 has bold 0 words.\nParagraph 1 has bold 1 words.\n");
        assertThat(copied).endsWith("Paragraph 119 has bold 119 words.\nThe closing line.");
        assertThat(copied.lines()).hasSize(121);
    }

    @Test
    void ctrlAOverALongHighlightedCodeBlockCopiesItsLinesWithoutBlankLinesBetweenItsFlows() throws Exception {
        StringBuilder code = new StringBuilder();
        for (int i = 0; i < 151; i++) {
            code.append("value_")
                    .append(i)
                    .append(" = ")
                    .append(i)
                    .append("  # line ")
                    .append(i)
                    .append('\n');
        }
        reply("Here:\n\n```python\n" + code + "```\n\nDone.");
        robot.clickOn(at(flowWith("Done."), 1, true));
        robot.press(KeyCode.CONTROL).type(KeyCode.A).release(KeyCode.CONTROL);
        copy();

        assertThat(clipboard()).isEqualTo("Here:\n" + code + "Done.");
    }

    @Test
    void aDragInsideAWideCodeBlockCopiesThatPartAndTheLayoutSurvivesTheHighlight() throws Exception {
        List<Throwable> thrown = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before =
                onFx(() -> Thread.currentThread().getUncaughtExceptionHandler());
        onFx(() -> {
            Thread.currentThread().setUncaughtExceptionHandler((t, e) -> thrown.add(e));
            return null;
        });
        try {
            String wide = "echo " + "word ".repeat(80);
            reply("```sh\n" + wide + "\nls\n```\n");
            TextFlow flow = flowWith("echo word");

            drag(at(flow, 0, true), at(flow, 8, false));
            copy();
            WaitForAsyncUtils.waitForFxEvents();

            assertThat(clipboard()).isEqualTo("echo word");
            assertThat(thrown).as("exceptions on the FX thread").isEmpty();
        } finally {
            onFx(() -> {
                Thread.currentThread().setUncaughtExceptionHandler(before);
                return null;
            });
        }
    }

    @Test
    void shiftArrowsMoveTheEndOfTheSelection() throws Exception {
        reply("One two three.\n\nFour five.");
        TextFlow flow = flowWith("One two");

        robot.moveTo(at(flow, 4, true)).doubleClickOn(MouseButton.PRIMARY);
        robot.press(KeyCode.SHIFT).type(KeyCode.RIGHT, 12).release(KeyCode.SHIFT);
        copy();

        assertThat(clipboard()).isEqualTo("two three.\nFour");
    }

    private void reply(String markdown) throws Exception {
        server.enqueue(Sse.reply(markdown));
        robot.clickOn("#composer").write("Say something").type(KeyCode.ENTER);
        WindowFixture.waitFor(this::idle);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private boolean idle() {
        return robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false);
    }

    private void drag(Point2D from, Point2D to) {
        robot.moveTo(from).press(MouseButton.PRIMARY).moveTo(to).release(MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void copy() {
        robot.press(KeyCode.CONTROL).type(KeyCode.C).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static String clipboard() throws Exception {
        return onFx(() -> Clipboard.getSystemClipboard().getString());
    }

    /** The visible flow whose text contains {@code text}. */
    private TextFlow flowWith(String text) {
        return robot.lookup((Node n) ->
                        n instanceof TextFlow f && f.isVisible() && flowText(f).contains(text))
                .queryAs(TextFlow.class);
    }

    private static String flowText(TextFlow flow) {
        StringBuilder sb = new StringBuilder();
        for (Node child : flow.getChildren()) {
            if (child instanceof Text t) {
                sb.append(t.getText());
            }
        }
        return sb.toString();
    }

    /** Whether {@code flow} carries a selection highlight with a shape. */
    private static boolean highlighted(TextFlow flow) throws Exception {
        return onFx(() -> flow.getChildren().stream()
                .anyMatch(n -> n instanceof Path p
                        && p.getStyleClass().contains("text-selection")
                        && !p.getElements().isEmpty()));
    }

    /** The screen point just inside the left ({@code leading}) or right edge of character {@code index} of a flow. */
    private static Point2D at(TextFlow flow, int index, boolean leading) throws Exception {
        return onFx(() -> {
            double minX = Double.MAX_VALUE;
            double maxX = -Double.MAX_VALUE;
            double minY = Double.MAX_VALUE;
            double maxY = -Double.MAX_VALUE;
            for (PathElement e : flow.getRangeShape(index, index + 1, false)) {
                double x;
                double y;
                if (e instanceof MoveTo m) {
                    x = m.getX();
                    y = m.getY();
                } else if (e instanceof LineTo l) {
                    x = l.getX();
                    y = l.getY();
                } else {
                    continue;
                }
                minX = Math.min(minX, x);
                maxX = Math.max(maxX, x);
                minY = Math.min(minY, y);
                maxY = Math.max(maxY, y);
            }
            return flow.localToScreen(leading ? minX + 1 : maxX - 1, (minY + maxY) / 2);
        });
    }

    private static <T> T onFx(java.util.concurrent.Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get(10, TimeUnit.SECONDS);
    }
}
