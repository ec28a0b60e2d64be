package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
import javafx.scene.paint.Paint;
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
 * Code blocks in the real chat window, highlighted: a streamed reply's Java block is shown as coloured runs in the
 * light and the dark theme, its Copy button copies the raw code, and a block that streams in small pieces ends
 * highlighted. Headless, like {@link ChatWindowTest}.
 */
class CodeHighlightingWindowTest {
    private static final String CODE = """
            public class Greeter {
                // Says hello.
                String greet() { return "Hello"; }
            }""";

    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private final FxRobot robot = new FxRobot();
    private WindowFixture window;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private void openWindow() throws Exception {
        server.start();
        window = WindowFixture.open(
                DesktopHarness.start(configDir, server.url("/v1").toString(), "{}"), configDir, (owner, tab) -> {});
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

    private boolean idle() {
        return robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false);
    }

    private void sendPrompt(String text) {
        robot.clickOn("#composer").write(text).type(KeyCode.ENTER);
    }

    private Text run(String style, String text) {
        return robot.lookup((Node n) -> n instanceof Text t
                        && t.getStyleClass().contains(style)
                        && t.getText().contains(text))
                .queryAs(Text.class);
    }

    private Text plainRun(String text) {
        return robot.lookup((Node n) -> n instanceof Text t
                        && t.getStyleClass().contains("md-code-text")
                        && t.getStyleClass().stream().noneMatch(c -> c.startsWith("tok-"))
                        && t.getText().contains(text))
                .queryAs(Text.class);
    }

    private static <T> T onFx(Callable<T> call) throws Exception {
        return WaitForAsyncUtils.asyncFx(call).get();
    }

    @Test
    void aJavaBlockIsColouredInBothThemesAndCopyCopiesTheRawCode() throws Exception {
        openWindow();
        server.enqueue(Sse.reply("Here it is:\n\n", "```java\n" + CODE + "\n```\n", "\nDone."));
        sendPrompt("Code please");
        waitFor(() -> idle() && robot.lookup(".tok-keyword").tryQuery().isPresent());

        Text keyword = run("tok-keyword", "public");
        assertThat(keyword.getText()).startsWith("public");
        assertThat(run("tok-comment", "// Says hello.")).isNotNull();
        assertThat(run("tok-string", "\"Hello\"")).isNotNull();
        Text plain = plainRun("Greeter");
        Paint lightKeyword = onFx(keyword::getFill);
        Paint lightPlain = onFx(plain::getFill);
        assertThat(lightKeyword).as("light: keyword colour vs plain text").isNotEqualTo(lightPlain);

        robot.push(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.D);
        waitFor(() ->
                !keyword.getFill().equals(lightKeyword) && !plain.getFill().equals(lightPlain));
        Paint darkKeyword = onFx(keyword::getFill);
        assertThat(darkKeyword).as("dark: keyword colour vs plain text").isNotEqualTo(onFx(plain::getFill));
        robot.push(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.D);
        waitFor(() -> keyword.getFill().equals(lightKeyword));

        robot.clickOn(".md-copy");
        assertThat(onFx(() -> Clipboard.getSystemClipboard().getString())).isEqualTo(CODE);
    }

    @Test
    void aCodeBlockStreamedInSmallPiecesEndsHighlighted() throws Exception {
        openWindow();
        StringBuilder body = new StringBuilder(Sse.chunk("```python\n"));
        String python = "def greet(name):\n    # Says hello.\n    return 'Hello, ' + name\n".repeat(40);
        for (int i = 0; i < python.length(); i += 7) {
            body.append(Sse.chunk(python.substring(i, Math.min(python.length(), i + 7))));
        }
        body.append(Sse.chunk("```\n")).append(Sse.finish());
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(body.toString())
                .throttleBody(2_000, 100, TimeUnit.MILLISECONDS)
                .build());
        sendPrompt("Stream some Python");
        waitFor(() -> robot.lookup(".tok-keyword").tryQuery().isPresent());
        assertThat(idle()).as("highlighted while it still streams").isFalse();

        waitFor(this::idle);
        Node code = robot.lookup(".md-code-body").query();
        assertThat(ChatWindowTest.codeText(code)).isEqualTo(python.stripTrailing());
        assertThat(code.lookupAll(".md-code-text").stream()
                        .map(Text.class::cast)
                        .filter(t -> t.getText().startsWith("def "))
                        .allMatch(t -> t.getStyleClass().contains("tok-keyword")))
                .isTrue();
        assertThat(robot.lookup(".tok-comment").queryAll()).hasSizeGreaterThanOrEqualTo(40);
    }
}
