package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.history.ChatSearch;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.SessionJournal;
import dev.rebound.history.SessionSummary;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import dev.rebound.transcript.UserMessage;
import dev.rebound.ui.view.ChatWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/** The sidebar's search and File → Export chat as Markdown in the real window, on chats saved before it opened. */
class SearchAndExportTest {
    private static final long T0 = 1_796_121_000_000L;

    @TempDir
    Path configDir;

    @TempDir
    Path exports;

    private final FxRobot robot = new FxRobot();
    private final List<String> proposedNames = new CopyOnWriteArrayList<>();
    private final AtomicReference<Path> exportTarget = new AtomicReference<>();
    private DesktopHarness harness;
    private Stage stage;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @BeforeEach
    void open() throws Exception {
        Path sessions = configDir.resolve("sessions");
        saved(sessions, "garden", "Garden: shade/sun", T0, "Which ferns like deep shade?", "Try **Dryopteris**.");
        saved(sessions, "taxes", "Taxes", T0 + 1000, "Deductions for a home office", "Keep the **receipts**.");
        // Nothing is sent: the provider's address is never called.
        harness = DesktopHarness.start(configDir, "http://127.0.0.1:9/v1", "{}");
        DesktopContext context = harness.context(null);
        stage = FxToolkit.setupFixture(() -> {
            Stage s = new Stage();
            ChatWindow window = TestWindows.show(s, context);
            window.setExportChooser((owner, fileName, folder) -> {
                proposedNames.add(fileName);
                return Optional.ofNullable(exportTarget.get());
            });
            return s;
        });
        FxWait.until(() -> robot.lookup("#composer").tryQuery().isPresent()
                && sessions().getItems().stream()
                        .map(SessionSummary::id)
                        .toList()
                        .containsAll(List.of("garden", "taxes")));
    }

    @AfterEach
    void close() throws Exception {
        try {
            if (stage != null) {
                FxToolkit.setupFixture(stage::hide);
            }
        } finally {
            harness.close();
        }
    }

    @Test
    void typingListsTheMatchingChatWithItsSnippetAClickOpensItAndEscRestoresTheList() throws Exception {
        assertThat(robot.lookup("#search-hits").tryQuery())
                .as("the hits' list joins the window at the first search")
                .isEmpty();
        robot.clickOn("#chat-search").write("FERNS shade");

        FxWait.until(() -> robot.lookup("#search-hits").tryQuery().isPresent()
                && hits().isVisible()
                && hits().getItems().size() == 1
                && !sessions().isVisible()
                && cellTexts().contains("You: Which ferns like deep shade?"));
        assertThat(robot.lookup("#search-summary").queryLabeled().getText()).isEqualTo("1 chat");
        assertThat(markedWords()).contains("ferns", "shade");

        robot.clickOn((Node n) -> n instanceof ListCell<?> c && c.getItem() instanceof ChatSearch.Hit);

        FxWait.until(() -> robot.lookup(".md-strong").tryQuery().isPresent()
                && "Dryopteris"
                        .equals(robot.lookup(".md-strong").queryAs(Text.class).getText()));
        robot.clickOn("#chat-search").type(KeyCode.ESCAPE);

        FxWait.until(() -> sessions().isVisible() && !hits().isVisible());
        assertThat(robot.lookup("#chat-search").queryTextInputControl().getText())
                .isEmpty();
        assertThat(sessions().getItems()).extracting(SessionSummary::id).contains("garden", "taxes");
        assertThat(sessions().getSelectionModel().getSelectedItem().id()).isEqualTo("garden");
    }

    @Test
    void ctrlKFocusesTheSearchAndAQueryWithoutMatchesSaysSo() throws Exception {
        robot.press(KeyCode.CONTROL, KeyCode.K).release(KeyCode.K, KeyCode.CONTROL);
        FxWait.until(() -> robot.lookup("#chat-search").queryAs(Node.class).isFocused());

        robot.write("zeppelin");

        FxWait.until(() -> "No chat matches"
                .equals(robot.lookup("#search-summary").queryLabeled().getText()));
        assertThat(hits().getItems()).isEmpty();
    }

    @Test
    void exportWritesTheChatShownAsMarkdownWhereTheChooserSays() throws Exception {
        openSaved("garden", "Dryopteris");
        Path target = exports.resolve("garden.md");
        exportTarget.set(target);

        robot.push(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.E);

        FxWait.until(() -> Files.exists(target));
        assertThat(proposedNames).containsExactly("Garden shade-sun.md");
        assertThat(Files.readString(target))
                .startsWith("# Garden: shade/sun\n")
                .contains("## You\n\nWhich ferns like deep shade?\n")
                .contains("## Assistant · local/test-model\n\nTry **Dryopteris**.\n");
        FxWait.until(() -> robot.lookup((Node n) -> n instanceof javafx.scene.control.Label l
                        && l.getText() != null
                        && l.getText().contains("Exported “Garden: shade/sun” to " + target + "."))
                .tryQuery()
                .isPresent());
    }

    @Test
    void aFolderWhereTheFileShouldBeIsExplainedInPlainWords() throws Exception {
        openSaved("taxes", "receipts");
        Path folder = Files.createDirectories(exports.resolve("Taxes.md"));
        exportTarget.set(folder);

        robot.clickOn("File").clickOn("#export-chat");

        FxWait.until(() -> robot.lookup("#export-failure").tryQuery().isPresent());
        assertThat(failureText())
                .isEqualTo(folder + " is a folder, not a file. Move or rename that folder, then try again. The chat "
                        + "itself is unchanged.");
        assertThat(Files.isDirectory(folder)).isTrue();
    }

    @Test
    void aReadOnlyFolderIsExplainedInPlainWordsAndNothingIsWritten() throws Exception {
        Path readOnly = Files.createDirectories(exports.resolve("locked"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        assumeThat(Files.isWritable(readOnly))
                .as("a read-only folder stops this user (root writes anywhere)")
                .isFalse();
        openSaved("taxes", "receipts");
        exportTarget.set(readOnly.resolve("Taxes.md"));

        robot.clickOn("File").clickOn("#export-chat");

        FxWait.until(() -> robot.lookup("#export-failure").tryQuery().isPresent());
        assertThat(failureText())
                .startsWith("Rebound may not write to " + readOnly + ". Give your user write permission")
                .endsWith("The chat itself is unchanged.");
        try (var left = Files.list(readOnly)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aRightClickOnAChatOffersRenameDeleteAndExportAndRenameWorksFromIt() throws Exception {
        openSaved("taxes", "Deductions for a home office");
        robot.rightClickOn((Node n) ->
                n instanceof ListCell<?> c && c.getItem() instanceof SessionSummary s && s.id().equals("taxes"));
        FxWait.until(() -> sessions().getContextMenu() != null
                && sessions().getContextMenu().isShowing());
        assertThat(sessions().getContextMenu().getItems())
                .extracting(javafx.scene.control.MenuItem::getText)
                .containsExactly("_Rename…", "_Delete…", "_Export as Markdown…");
        robot.clickOn("Rename…");
        FxWait.until(
                () -> robot.lookup(".text-input-dialog .text-field").tryQuery().isPresent());
        robot.lookup(".text-input-dialog .text-field").queryTextInputControl().setText("Tax year");
        robot.clickOn("OK");
        FxWait.until(() -> sessions().getItems().stream()
                .anyMatch(s -> s.title() != null && s.title().equals("Tax year")));
    }

    private void openSaved(String id, String shownText) throws Exception {
        robot.clickOn(
                (Node n) -> n instanceof ListCell<?> c && c.getItem() instanceof SessionSummary s && s.id().equals(id));
        FxWait.until(() -> robot.lookup((Node n) -> n instanceof Text t && shownText.equals(t.getText()))
                        .tryQuery()
                        .isPresent()
                && sessions().getSelectionModel().getSelectedItem() != null
                && sessions().getSelectionModel().getSelectedItem().id().equals(id));
    }

    private String failureText() {
        return robot.lookup("#export-failure")
                .queryAs(javafx.scene.control.DialogPane.class)
                .getContentText();
    }

    @SuppressWarnings("unchecked")
    private ListView<SessionSummary> sessions() {
        return robot.lookup("#sessions").queryAs(ListView.class);
    }

    @SuppressWarnings("unchecked")
    private ListView<ChatSearch.Hit> hits() {
        return robot.lookup("#search-hits").queryAs(ListView.class);
    }

    /** The text of every snippet and title shown in the hits. */
    private List<String> cellTexts() {
        return robot.lookup(".search-snippet").queryAllAs(TextFlow.class).stream()
                .map(SearchAndExportTest::text)
                .toList();
    }

    private List<String> markedWords() {
        return robot.lookup(".search-mark").queryAllAs(Text.class).stream()
                .map(Text::getText)
                .toList();
    }

    private static String text(TextFlow flow) {
        StringBuilder all = new StringBuilder();
        flow.getChildren().forEach(n -> all.append(((Text) n).getText()));
        return all.toString();
    }

    private static void saved(Path sessions, String id, String title, long ts, String prompt, String answer)
            throws Exception {
        try (SessionJournal journal = SessionJournal.create(sessions, id, ts, title)) {
            journal.append(MessageEntry.of(new UserMessage("u-" + id, prompt, ts + 1)));
            journal.append(MessageEntry.of(new AssistantMessage(
                    "a-" + id,
                    List.of(new ContentBlock.Text(answer)),
                    "local",
                    "test-model",
                    "openai-completions",
                    null,
                    Usage.NONE,
                    StopReason.STOP,
                    null,
                    null,
                    null,
                    ts + 2)));
        }
    }
}
