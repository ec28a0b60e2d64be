package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Regenerate and edit-and-resend in the real window, by mouse and keyboard: the last reply's Regenerate link, ↑ in
 * the empty composer, Esc to leave editing, Ctrl+R; and what the chat file keeps afterwards.
 */
class RegenerateAndEditWindowTest {
    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private final FxRobot robot = new FxRobot();
    private WindowFixture window;

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
        server.start();
        window = WindowFixture.open(
                DesktopHarness.start(configDir, server.url("/v1").toString(), "{}"), configDir, (owner, tab) -> {});
    }

    private static void waitFor(Callable<Boolean> condition) throws Exception {
        WindowFixture.waitFor(condition);
    }

    private boolean idle() {
        return robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false);
    }

    private List<String> prompts() {
        return robot.lookup(".user-text").queryAll().stream()
                .filter(Node::isVisible)
                .map(flow -> ((javafx.scene.Parent) flow)
                        .getChildrenUnmodifiable().stream()
                                .filter(Text.class::isInstance)
                                .map(t -> ((Text) t).getText())
                                .collect(java.util.stream.Collectors.joining()))
                .toList();
    }

    private boolean showsReply(String text) {
        return robot.lookup((Node n) -> n instanceof Text t && text.equals(t.getText()))
                .tryQuery()
                .isPresent();
    }

    private static int indexOf(List<String> lines, String part) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i;
            }
        }
        return -1;
    }

    /** Closes the window and shows its chat again from the file, in a new window. */
    private void reopenInANewWindow() throws Exception {
        window.close();
        Path file;
        try (var files = Files.walk(configDir.resolve("sessions"))) {
            file = files.filter(p -> p.toString().endsWith(".jsonl"))
                    .findFirst()
                    .orElseThrow();
        }
        window = WindowFixture.open(DesktopHarness.open(configDir), configDir, (owner, tab) -> {}, file);
    }

    private String sessionFile() throws Exception {
        try (var files = Files.walk(configDir.resolve("sessions"))) {
            return Files.readString(files.filter(p -> p.toString().endsWith(".jsonl"))
                    .findFirst()
                    .orElseThrow());
        }
    }

    @Test
    void theRegenerateLinkAndCtrlRReplaceTheLastReplyAndTheFileKeepsEveryOne() throws Exception {
        openWindow();
        server.enqueue(Sse.reply("First answer"));
        server.enqueue(Sse.reply("Second answer"));
        server.enqueue(Sse.reply("Third answer"));
        robot.clickOn("#composer").write("Question").type(KeyCode.ENTER);
        waitFor(() -> idle() && showsReply("First answer"));

        robot.clickOn(".regenerate-reply");
        waitFor(() -> idle() && showsReply("Second answer"));
        assertThat(showsReply("First answer")).isFalse();
        robot.press(KeyCode.CONTROL).type(KeyCode.R).release(KeyCode.CONTROL);
        waitFor(() -> idle() && showsReply("Third answer"));

        assertThat(showsReply("Second answer")).isFalse();
        assertThat(prompts()).containsExactly("Question");
        assertThat(server.getRequestCount()).isEqualTo(3);
        assertThat(sessionFile())
                .contains("First answer", "Second answer", "Third answer", "\"reason\":\"regenerate\"");
    }

    @Test
    void upInTheEmptyComposerEditsTheLastMessageEnterResendsItAndEscLeavesEditing() throws Exception {
        openWindow();
        server.enqueue(Sse.reply("About cats"));
        server.enqueue(Sse.reply("About dogs"));
        robot.clickOn("#composer").write("Tell me about cats").type(KeyCode.ENTER);
        waitFor(() -> idle() && showsReply("About cats"));

        assertThat(robot.lookup("#editing-line").tryQuery())
                .as("the editing line is made when editing first begins")
                .isEmpty();
        robot.type(KeyCode.UP);
        waitFor(() ->
                robot.lookup("#editing-line").tryQuery().map(Node::isVisible).orElse(false));
        assertThat(robot.lookup("#composer").queryTextInputControl().getText()).isEqualTo("Tell me about cats");
        robot.type(KeyCode.ESCAPE);
        waitFor(() -> !robot.lookup("#editing-line").queryAs(Node.class).isVisible());
        assertThat(robot.lookup("#composer").queryTextInputControl().getText()).isEmpty();

        robot.press(KeyCode.CONTROL).type(KeyCode.E).release(KeyCode.CONTROL);
        waitFor(() -> robot.lookup("#editing-line").queryAs(Node.class).isVisible());
        robot.clickOn("#cancel-edit");
        waitFor(() -> !robot.lookup("#editing-line").queryAs(Node.class).isVisible());
        robot.clickOn(".edit-prompt");
        waitFor(() -> robot.lookup("#editing-line").queryAs(Node.class).isVisible());
        robot.clickOn("#composer");
        robot.press(KeyCode.CONTROL).type(KeyCode.END).release(KeyCode.CONTROL);
        robot.eraseText(4).write("dogs").type(KeyCode.ENTER);
        waitFor(() -> idle() && showsReply("About dogs"));

        assertThat(prompts()).containsExactly("Tell me about dogs");
        assertThat(showsReply("About cats")).isFalse();
        assertThat(robot.lookup("#editing-line").queryAs(Node.class).isVisible())
                .isFalse();
        server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getBody().utf8()).doesNotContain("cats");
        List<String> lines = sessionFile().lines().toList();
        int rewind = indexOf(lines, "\"type\":\"rewind\"");
        int edited = indexOf(lines, "\"text\":\"Tell me about dogs\"");
        int original = indexOf(lines, "\"text\":\"Tell me about cats\"");
        assertThat(original).as("the replaced message stays in the file").isGreaterThan(0);
        assertThat(rewind)
                .as("the rewind comes after it, before the edited message")
                .isBetween(original, edited);
        String replacedId = com.fasterxml.jackson.databind.json.JsonMapper.builder()
                .build()
                .readTree(lines.get(original))
                .path("id")
                .asText();
        assertThat(lines.get(rewind)).contains("\"replaces\":\"" + replacedId + "\"", "\"reason\":\"edit\"");

        reopenInANewWindow();
        waitFor(() -> showsReply("About dogs"));
        assertThat(prompts()).containsExactly("Tell me about dogs");
        assertThat(showsReply("About cats")).isFalse();
    }
}
