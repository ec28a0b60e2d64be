package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import dev.rebound.ui.settings.SettingsWindowOpener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The system prompt in the real window: the default typed in Settings → Chat reaches settings.json and the next
 * request; Chat → System prompt… gives the chat its own, sent from its next message and kept in its file; a default
 * longer than allowed is refused at the field with Save disabled.
 */
class SystemPromptWindowTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private final FxRobot robot = new FxRobot();
    private DesktopHarness harness;
    private SettingsWindowOpener opener;
    private Stage stage;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private void openChatWindow() throws Exception {
        server.start();
        harness = DesktopHarness.start(configDir, server.url("/v1").toString(), "{}");
        DesktopContext context = harness.context(null);
        stage = FxToolkit.setupFixture(() -> {
            opener = new SettingsWindowOpener(context.settingsServices(), Platform::runLater, context.background());
            Stage s = new Stage();
            TestWindows.show(s, context, null, url -> {}, opener);
            return s;
        });
        FxWait.until(() -> robot.lookup("#composer").tryQuery().isPresent());
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupFixture(() -> {
            for (Window w : Window.getWindows().stream().toList()) {
                if (w instanceof Stage s && s != FxToolkit.toolkitContext().getRegisteredStage()) {
                    s.hide();
                }
            }
        });
        server.close();
        if (harness != null) {
            harness.close();
        }
    }

    private JsonNode sendAndRead(String prompt) throws Exception {
        server.enqueue(Sse.reply("ok " + prompt));
        robot.clickOn("#composer").write(prompt).type(KeyCode.ENTER);
        FxWait.until(() ->
                robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false) && server.getRequestCount() > 0);
        return JSON.readTree(server.takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
    }

    private void openChatTab() throws Exception {
        robot.clickOn("#composer");
        robot.push(KeyCode.CONTROL, KeyCode.COMMA);
        FxWait.until(() -> robot.lookup("#tab-chat").tryQuery().isPresent()
                || robot.lookup("Chat").tryQuery().isPresent());
        robot.clickOn((Node n) -> n.getStyleClass().contains("tab-label")
                && n instanceof javafx.scene.control.Label l
                && "Chat".equals(l.getText()));
        FxWait.until(() -> robot.lookup("#chat-systemPrompt")
                .tryQuery()
                .map(Node::isVisible)
                .orElse(false));
    }

    @Test
    void theDefaultFromSettingsIsSentUntilTheChatGetsItsOwnFromTheDialog() throws Exception {
        openChatWindow();
        openChatTab();
        robot.clickOn("#chat-systemPrompt").write("Be brief.");
        robot.clickOn("#settings-save");
        FxWait.until(() -> JSON.readTree(Files.readString(configDir.resolve("settings.json")))
                .path("systemPrompt")
                .asText()
                .equals("Be brief."));

        JsonNode first = sendAndRead("One");
        assertThat(first.at("/messages/0/role").asText()).isEqualTo("system");
        assertThat(first.at("/messages/0/content").asText()).isEqualTo("Be brief.");

        robot.clickOn("Chat").clickOn("System prompt…");
        FxWait.until(() -> robot.lookup("#system-prompt-default").tryQuery().isPresent());
        assertThat(robot.lookup("#system-prompt-text").queryAs(TextArea.class).getText())
                .isEqualTo("Be brief.");
        assertThat(robot.lookup("#system-prompt-default")
                        .queryAs(CheckBox.class)
                        .isSelected())
                .isTrue();
        robot.clickOn("#system-prompt-default");
        robot.clickOn("#system-prompt-text").write("Answer in French.");
        assertThat(robot.lookup("#system-prompt-chip").query().isVisible()).isFalse();
        robot.clickOn("OK");
        FxWait.until(() -> robot.lookup("#system-prompt-chip").query().isVisible());
        // A screen reader hears the chat's own prompt before any tooltip is made (it is made on first hover).
        assertThat(FxToolkit.setupFixture(
                        () -> robot.lookup("#system-prompt-chip").query().getAccessibleHelp()))
                .endsWith("Answer in French.");

        JsonNode second = sendAndRead("Two");
        assertThat(second.at("/messages/0/content").asText()).isEqualTo("Answer in French.");
        try (var files = Files.walk(configDir.resolve("sessions"))) {
            Path file = files.filter(p -> p.toString().endsWith(".jsonl"))
                    .findFirst()
                    .orElseThrow();
            assertThat(Files.readString(file)).contains("\"type\":\"system_prompt\"", "Answer in French.");
        }
    }

    @Test
    void aDefaultLongerThanAllowedIsRefusedAtTheFieldAndSaveIsDisabled() throws Exception {
        openChatWindow();
        openChatTab();
        String tooLong = "x".repeat(dev.rebound.settings.SettingsValidator.MAX_SYSTEM_PROMPT + 1);
        FxToolkit.setupFixture(
                () -> robot.lookup("#chat-systemPrompt").queryAs(TextArea.class).setText(tooLong));

        FxWait.until(
                () -> robot.lookup("#chat-systemPrompt-error").queryLabeled().isVisible());
        assertThat(robot.lookup("#chat-systemPrompt-error").queryLabeled().getText())
                .contains("at most 100,000");
        assertThat(robot.lookup("#settings-save").query().isDisabled()).isTrue();
    }
}
