package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The retry record of a reply in the real window: the quiet line under the reply's header after a scripted chain,
 * its timeline unfolded by a click, Copy diagnostics, and the same line and timeline when the chat is reopened from
 * its file in a new window.
 */
class RetryRecordWindowTest {
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

    /** Closes the window and shows its chat again from the file, in a new window on the same settings. */
    private void reopen() throws Exception {
        window.close();
        Path file;
        try (Stream<Path> files = Files.walk(configDir.resolve("sessions"))) {
            file = files.filter(p -> p.toString().endsWith(".jsonl"))
                    .findFirst()
                    .orElseThrow();
        }
        window = WindowFixture.open(DesktopHarness.open(configDir), configDir, (owner, tab) -> {}, file);
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

    private void send(String text) throws Exception {
        robot.clickOn("#composer").write(text).type(KeyCode.ENTER);
        waitFor(() -> robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false)
                && robot.lookup(".retry-record-toggle")
                        .tryQuery()
                        .map(Node::isVisible)
                        .orElse(false));
    }

    /** The record line of the last reply that has one. */
    private String recordLine() {
        return lastToggle().getText();
    }

    private Hyperlink lastToggle() {
        return robot.lookup(".retry-record-toggle").queryAllAs(Hyperlink.class).stream()
                .filter(link -> link.getParent().isVisible())
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    /** Every record line shown, in order, with its timeline unfolded, for comparing a chat with its reopened self. */
    private List<String> everyRecord() {
        return robot.lookup(".retry-record-toggle").queryAllAs(Hyperlink.class).stream()
                .filter(link -> link.getParent().isVisible())
                .map(link -> link.getText().substring(2))
                .toList();
    }

    /** Reopens the chat in a new window and checks that it shows the same record lines. */
    private void assertSameRecordsWhenReopened() throws Exception {
        List<String> live = everyRecord();
        reopen();
        waitFor(() -> everyRecord().size() == live.size());
        assertThat(everyRecord()).isEqualTo(live);
    }

    private int recordLines() {
        return (int) robot.lookup(".retry-record-toggle").queryAllAs(Hyperlink.class).stream()
                .filter(link -> link.getParent().isVisible())
                .count();
    }

    private List<String> timeline() {
        return robot.lookup(".retry-timeline-head").queryAllAs(Label.class).stream()
                .filter(Node::isVisible)
                .map(Label::getText)
                .toList();
    }

    @Test
    void threeOverloadsLeaveARecordLineWhoseTimelineAndDiagnosticsComeBackWhenTheChatIsReopened() throws Exception {
        openWindow("{\"baseDelayMs\": 10}");
        server.enqueue(Overloaded.response("retry-after", "1"));
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("Made **it**"));

        send("Hi");

        assertThat(robot.lookup("#announcer").queryLabeled().getAccessibleText())
                .isEqualTo("Recovered after 3 retries; the reply is shown.");
        assertThat(window.headlines()).isNotEmpty();
        String line = recordLine();
        assertThat(line).matches("▸ ↻ Recovered after 3 retries · [0-9.]+ s · overloaded \\(529\\)");
        assertThat(timeline()).isEmpty();
        robot.clickOn(".retry-record-toggle");
        waitFor(() -> timeline().size() == 4);
        List<String> timeline = timeline();
        assertThat(timeline.getFirst()).endsWith(" · " + DesktopHarness.MODEL + " · overloaded (529)");
        assertThat(timeline.getLast()).endsWith(" · " + DesktopHarness.MODEL + " · answered");
        assertThat(robot.lookup(".retry-timeline-decision").queryAllAs(Label.class))
                .extracting(Label::getText)
                .first()
                .isEqualTo("→ retried after 1.0 s, as the provider asked");
        robot.clickOn(".retry-copy-diagnostics");
        waitFor(() -> "Copied"
                .equals(robot.lookup(".retry-copy-diagnostics")
                        .queryAs(Button.class)
                        .getText()));
        String[] copied = new String[1];
        FxToolkit.setupFixture(() -> copied[0] = Clipboard.getSystemClipboard().getString());
        assertThat(copied[0])
                .startsWith("### Rebound retry record")
                .contains("| 1 | ", "| transient | 529 | overloaded (529) |", "| provider_hint |", "answered");

        reopen();

        waitFor(() -> robot.lookup(".retry-record-toggle")
                .tryQuery()
                .map(Node::isVisible)
                .orElse(false));
        assertThat(recordLine()).isEqualTo(line);
        robot.clickOn(".retry-record-toggle");
        waitFor(() -> timeline().size() == 4);
        assertThat(timeline()).isEqualTo(timeline);
    }

    @Test
    void aKeySwitchAndThenAFallbackEachSayWhatHappened() throws Exception {
        Files.writeString(configDir.resolve("credentials.json"), """
                { "local": [ { "label": "a", "apiKey": "sk-a-0000" }, { "label": "b", "apiKey": "sk-b-1111" } ] }
                """);
        openWindow("{\"baseDelayMs\": 10, \"fallbackChains\": {\"default\": [\"local/other-model\"]}}");
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .addHeader("Content-Type", "application/json")
                .addHeader("retry-after", "1800")
                .body("{\"type\":\"error\",\"error\":{\"type\":"
                        + "\"usage_limit_error\",\"message\":\"You've hit your usage limit for this plan.\"}}")
                .build());
        server.enqueue(Sse.reply("From key b"));

        send("One");
        assertThat(recordLine())
                .startsWith("▸ ↻ Recovered after 1 retry · ")
                .endsWith(" · usage limit (429) · switched key");
        robot.clickOn(lastToggle());
        waitFor(() -> timeline().size() == 2);
        assertThat(timeline().get(0)).contains("key \"a\" · usage limit (429)");
        assertThat(timeline().get(1)).contains("key \"b\" · answered");
        robot.clickOn(lastToggle());
        waitFor(() -> timeline().isEmpty());

        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("From the fallback"));
        robot.clickOn("#composer").write("Two").type(KeyCode.ENTER);
        waitFor(() -> recordLines() == 2
                && robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false));
        assertThat(recordLine())
                .startsWith(
                        "▸ ↻ Answered by local/other-model (fallback from " + DesktopHarness.MODEL + ") · 1 retry · ")
                .endsWith(" · overloaded (529)");
        robot.clickOn(lastToggle());
        waitFor(() -> timeline().size() == 2);
        assertThat(robot.lookup(".retry-timeline-decision").queryAllAs(Label.class))
                .extracting(Label::getText)
                .containsExactly("→ fell back to another model at once");
        assertSameRecordsWhenReopened();
    }

    @Test
    void anExhaustedChainAndACancelledOneKeepTheirRecordToo() throws Exception {
        openWindow("{\"baseDelayMs\": 10, \"maxRetries\": 2}");
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());

        send("One");
        assertThat(recordLine()).matches("▸ ↻ Failed after 2 retries · [0-9.]+ m?s · overloaded \\(529\\)");
        robot.clickOn(lastToggle());
        waitFor(() -> timeline().size() == 4);
        assertThat(timeline().getLast()).isEqualTo("Ended: no retries left (Settings → Retry → Max retries)");
        robot.clickOn(lastToggle());

        server.enqueue(Overloaded.response("retry-after", "30"));
        robot.clickOn("#composer").write("Two").type(KeyCode.ENTER);
        waitFor(() ->
                robot.lookup("#retry-banner").tryQuery().map(Node::isVisible).orElse(false));
        assertThat(robot.lookup("#retry-banner").query().getAccessibleText())
                .startsWith("Retry banner: Retrying (1/2) in ")
                .contains("HTTP 529");
        assertThat(robot.lookup("#announcer").queryLabeled().getAccessibleText())
                .startsWith("The request failed: ")
                .endsWith("Retry 1 of 2 in 30 seconds. Press Escape to cancel.");
        // Alt+C is Cancel Retry's mnemonic (the Chat menu must not take it).
        robot.press(KeyCode.ALT).type(KeyCode.C).release(KeyCode.ALT);
        waitFor(() -> recordLines() == 2
                && robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false));
        assertThat(recordLine()).matches("▸ ↻ Retry cancelled · [0-9.]+ m?s · overloaded \\(529\\)");
        assertSameRecordsWhenReopened();
    }
}
