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
import java.util.function.Predicate;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.PopupWindow;
import javafx.stage.Stage;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The settings window opened with Ctrl+, from the real chat window, on the real session core against a loopback
 * server: what is saved there reaches settings.json and the very next retry decision of the open chat.
 */
class SettingsWindowTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private final FxRobot robot = new FxRobot();
    private DesktopHarness harness;
    private DesktopContext context;
    private SettingsWindowOpener opener;
    private Stage stage;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private void openChatWindow() throws Exception {
        server.start();
        harness = DesktopHarness.start(configDir, server.url("/v1").toString(), "{\"baseDelayMs\": 10}");
        context = harness.context(null);
        stage = FxToolkit.setupFixture(() -> {
            opener = new SettingsWindowOpener(context.settingsServices(), Platform::runLater, context.background());
            Stage s = new Stage();
            TestWindows.show(s, context, null, url -> {}, opener);
            return s;
        });
        FxWait.until(() -> robot.lookup("#composer").tryQuery().isPresent());
    }

    private void openSettings() throws Exception {
        robot.clickOn("#composer");
        robot.push(KeyCode.CONTROL, KeyCode.COMMA);
        FxWait.until(() -> robot.lookup("#retry-maxRetries").tryQuery().isPresent());
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupFixture(this::hideWindows);
        server.close();
        if (harness != null) {
            harness.close();
        }
    }

    private void hideWindows() {
        if (opener != null && opener.current() != null) {
            opener.current().stage().hide();
        }
        if (stage != null) {
            stage.hide();
        }
    }

    private void replaceText(String query, String text) {
        robot.clickOn(query).push(KeyCode.CONTROL, KeyCode.A).write(text);
    }

    /** Opens a combo box and clicks an entry of its popup list. */
    private void choose(String combo, String entry) throws Exception {
        robot.clickOn(combo);
        Predicate<Node> inPopup = n -> n instanceof ListCell<?> c
                && entry.equals(c.getText())
                && c.getScene().getWindow() instanceof PopupWindow
                && c.isVisible();
        FxWait.until(() -> robot.lookup(inPopup).tryQuery().isPresent());
        robot.clickOn(inPopup);
    }

    private boolean settingsOpen() throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> opener.current() != null).get();
    }

    private JsonNode savedRetry() throws Exception {
        return JSON.readTree(Files.readString(configDir.resolve("settings.json")))
                .path("retry");
    }

    private boolean shows(String prefix) {
        return robot.lookup((Node n) -> n instanceof Labeled l
                        && l.getText() != null
                        && l.getText().contains(prefix)
                        && l.isVisible())
                .tryQuery()
                .isPresent();
    }

    /** The retry banner's headline while the banner is shown, else empty. */
    private String bannerHeadline() {
        boolean shown =
                robot.lookup("#retry-banner").tryQuery().filter(Node::isVisible).isPresent();
        return shown ? robot.lookup("#retry-headline").queryAs(Label.class).getText() : "";
    }

    @Test
    void maxRetriesSavedInTheWindowIsUsedByTheNextChainAndWrittenToSettingsJson() throws Exception {
        openChatWindow();
        openSettings();

        replaceText("#retry-maxRetries", "3");
        robot.clickOn("#settings-save");

        FxWait.until(() -> !settingsOpen());
        assertThat(savedRetry().path("maxRetries").asInt()).isEqualTo(3);
        server.enqueue(Overloaded.response("retry-after", "30"));
        robot.clickOn("#composer").write("Hi").type(KeyCode.ENTER);
        FxWait.until(() -> !bannerHeadline().isEmpty());
        assertThat(bannerHeadline()).startsWith("Retrying (1/3) in ");
        robot.clickOn("#cancel-retry");
        FxWait.until(() -> bannerHeadline().isEmpty());
    }

    @Test
    void typingMinusOneShowsTheReasonAtTheFieldAndDisablesSaveAndCancelDiscards() throws Exception {
        openChatWindow();
        String before = Files.readString(configDir.resolve("settings.json"));
        openSettings();

        replaceText("#retry-maxRetries", "-1");

        FxWait.until(() ->
                robot.lookup("#retry-maxRetries-error").queryAs(Label.class).isVisible());
        assertThat(robot.lookup("#retry-maxRetries-error").queryAs(Label.class).getText())
                .isEqualTo("must be ≥ 0");
        assertThat(robot.lookup("#settings-save").query().isDisabled()).isTrue();
        replaceText("#retry-maxRetries", "5");
        FxWait.until(() -> !robot.lookup("#settings-save").query().isDisabled());
        robot.clickOn("#settings-cancel");
        FxWait.until(() -> !settingsOpen());
        assertThat(Files.readString(configDir.resolve("settings.json"))).isEqualTo(before);
    }

    @Test
    void durationsAreShownWithUnitsTypedInShortFormsAndSavedInMilliseconds() throws Exception {
        openChatWindow();
        openSettings();
        TextField maxDelay = robot.lookup("#retry-maxDelayMs").queryAs(TextField.class);
        TextField baseDelay = robot.lookup("#retry-baseDelayMs").queryAs(TextField.class);
        assertThat(maxDelay.getText()).as("300000 ms").isEqualTo("5 min");
        assertThat(baseDelay.getText()).as("the harness's 10 ms").isEqualTo("10 ms");

        replaceText("#retry-baseDelayMs", "90s");
        robot.type(KeyCode.TAB);
        FxWait.until(() -> "1 min 30 s".equals(baseDelay.getText()));
        replaceText("#retry-maxDelayMs", "0");
        robot.clickOn("#settings-save");

        FxWait.until(() -> !settingsOpen());
        assertThat(savedRetry().path("baseDelayMs").asLong()).isEqualTo(90_000);
        assertThat(savedRetry().path("maxDelayMs").isIntegralNumber()).isTrue();
        assertThat(savedRetry().path("maxDelayMs").asLong()).isZero();
        assertThat(context.settings().current().retry().baseDelayMs()).isEqualTo(90_000);
    }

    @Test
    void aDurationWithAnUnknownUnitShowsItsReasonAtTheFieldAndDisablesSave() throws Exception {
        openChatWindow();
        openSettings();

        replaceText("#retry-refusalPinMs", "5 parsecs");
        robot.type(KeyCode.TAB);

        FxWait.until(() ->
                robot.lookup("#retry-refusalPinMs-error").queryAs(Label.class).isVisible());
        assertThat(robot.lookup("#retry-refusalPinMs-error")
                        .queryAs(Label.class)
                        .getText())
                .isEqualTo("'parsecs' is not a unit; use ms, s, min or h");
        assertThat(robot.lookup("#retry-refusalPinMs").queryAs(TextField.class).getText())
                .as("an invalid entry stays as typed")
                .isEqualTo("5 parsecs");
        assertThat(robot.lookup("#settings-save").query().isDisabled()).isTrue();
        replaceText("#retry-refusalPinMs", "5 min");
        FxWait.until(() -> !robot.lookup("#settings-save").query().isDisabled());
        assertThat(robot.lookup("#retry-refusalPinMs-error")
                        .queryAs(Label.class)
                        .isVisible())
                .isFalse();
    }

    @Test
    void aChainAddedAndReorderedInTheEditorIsSavedAndA529ThenFallsBackWithChipAndNotice() throws Exception {
        openChatWindow();
        openSettings();
        robot.clickOn("Fallback chains");

        robot.clickOn("#chain-new-key").write("default").type(KeyCode.ENTER);
        FxWait.until(() -> robot.lookup((Node n) -> n instanceof ListCell<?> c && "default".equals(c.getText()))
                .tryQuery()
                .isPresent());
        assertThat(robot.lookup("#settings-message").queryAs(Label.class).getText())
                .as("Enter in the key field adds the chain and does not save")
                .isEmpty();
        choose("#chain-model-choice", "local/test-model");
        robot.clickOn("#chain-model-add");
        choose("#chain-model-choice", "local/other-model");
        robot.clickOn("#chain-model-add");
        FxWait.until(() -> shows("2. local/other-model"));
        robot.clickOn((Node n) -> n instanceof Labeled l && "2. local/other-model".equals(l.getText()));
        robot.clickOn("#chain-up");
        ListView<?> models = robot.lookup("#chain-models").queryAs(ListView.class);
        assertThat(models.getItems()).map(Object::toString).containsExactly("local/other-model", "local/test-model");
        robot.clickOn("#settings-save");

        FxWait.until(() -> !settingsOpen());
        assertThat(savedRetry().path("fallbackChains").path("default").toString())
                .isEqualTo("[\"local/other-model\",\"local/test-model\"]");
        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("Answered by the **fallback**"));
        robot.clickOn("#composer").write("Hi").type(KeyCode.ENTER);
        FxWait.until(() ->
                robot.lookup("#fallback-chip").tryQuery().map(Node::isVisible).orElse(false)
                        && shows("Switched to local/other-model"));
        assertThat(robot.lookup("#fallback-chip").queryAs(Label.class).getText())
                .contains("local/other-model");
        FxWait.until(() -> robot.lookup(".md-strong").tryQuery().isPresent());
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getBody().utf8()).contains("test-model");
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getBody().utf8()).contains("other-model");
    }

    @Test
    void aKeyAddedInTheWindowIsShownMaskedAndSavedToCredentialsJsonOnly() throws Exception {
        openChatWindow();
        openSettings();
        robot.clickOn("Providers and credentials");

        assertThat(robot.lookup("#credential-provider").queryComboBox().getValue())
                .isEqualTo("local");
        robot.clickOn("#credential-label").write("work");
        robot.clickOn("#credential-key").write("sk-test-000011112222wxyz").type(KeyCode.ENTER);

        FxWait.until(() -> shows("••••wxyz"));
        assertThat(robot.lookup((Node n) -> n instanceof TextField t
                                && t.isVisible()
                                && t.getText().contains("sk-test"))
                        .tryQuery())
                .isEmpty();
        robot.clickOn("#settings-save");
        FxWait.until(() -> !settingsOpen());
        assertThat(Files.readString(configDir.resolve("credentials.json"))).contains("sk-test-000011112222wxyz");
        assertThat(Files.readString(configDir.resolve("settings.json"))).doesNotContain("sk-test");
    }

    private boolean visible(String query) {
        return robot.lookup(query).tryQuery().map(Node::isVisible).orElse(false);
    }

    @Test
    void providersOfEachKindAreAddedFromTheMenuWithOnlyTheirFieldsAndSavedWithHeadersAndQuery() throws Exception {
        openChatWindow();
        openSettings();
        robot.clickOn("Providers and credentials");

        robot.clickOn("#provider-add");
        robot.clickOn("#provider-add-azure");
        FxWait.until(() -> "azure"
                .equals(robot.lookup("#provider-key").queryTextInputControl().getText()));
        assertThat(visible("#provider-headers")).isTrue();
        assertThat(visible("#provider-store"))
                .as("only the Responses API stores replies")
                .isFalse();
        assertThat(robot.lookup("#provider-headers").queryTextInputControl().getText())
                .isEqualTo("api-key: <key>");
        replaceText("#provider-baseUrl", "https://contoso.openai.azure.com/openai/deployments/gpt-4o");
        replaceText("#provider-models", "gpt-4o");
        robot.clickOn("#provider-add");
        robot.clickOn("#provider-add-openai");
        FxWait.until(() -> "openai"
                .equals(robot.lookup("#provider-key").queryTextInputControl().getText()));
        assertThat(visible("#provider-store")).isTrue();
        robot.clickOn("#provider-store");
        robot.clickOn("#provider-add");
        robot.clickOn("#provider-add-anthropic");
        FxWait.until(() -> "anthropic"
                .equals(robot.lookup("#provider-key").queryTextInputControl().getText()));
        assertThat(robot.lookup("#provider-baseUrl").queryTextInputControl().getText())
                .isEqualTo("https://api.anthropic.com");
        choose("#provider-api", "simulator");
        FxWait.until(() -> !visible("#provider-baseUrl"));
        assertThat(visible("#provider-headers")).isFalse();
        assertThat(visible("#provider-test")).isFalse();
        choose("#provider-api", "anthropic-messages");
        FxWait.until(() -> visible("#provider-baseUrl"));
        replaceText("#provider-headers", "no separator here");
        FxWait.until(() -> visible("#provider-headers-error"));
        assertThat(robot.lookup("#settings-save").query().isDisabled()).isTrue();
        replaceText("#provider-headers", "anthropic-beta: prompt-caching-2024-07-31");
        FxWait.until(() -> !robot.lookup("#settings-save").query().isDisabled());
        robot.clickOn("#settings-save");

        FxWait.until(() -> !settingsOpen());
        JsonNode providers = JSON.readTree(Files.readString(configDir.resolve("settings.json")))
                .path("providers");
        assertThat(providers.path("azure").path("headers").toString()).isEqualTo("{\"api-key\":{\"credential\":true}}");
        assertThat(providers.path("azure").path("query").toString()).isEqualTo("{\"api-version\":\"2024-10-21\"}");
        assertThat(providers.path("openai").path("api").asText()).isEqualTo("openai-responses");
        assertThat(providers.path("openai").path("store").asBoolean(true)).isFalse();
        assertThat(providers
                        .path("anthropic")
                        .path("headers")
                        .path("anthropic-beta")
                        .asText())
                .isEqualTo("prompt-caching-2024-07-31");
        assertThat(providers.path("local").path("api").asText())
                .as("the other provider untouched")
                .isNotEmpty();
    }
}
