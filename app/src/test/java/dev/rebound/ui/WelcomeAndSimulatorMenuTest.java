package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.app.DesktopHarness;
import dev.rebound.settings.SettingsUpdate;
import dev.rebound.ui.view.SettingsTab;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.input.KeyCode;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The first run as a person sees it: no provider configured, so the real window chats with the real built-in
 * simulator (its HTTP server, the OpenAI provider, the retry engine); the welcome view, the "Simulate failures" menu
 * driven by a robot, and the menu disabled on a real (loopback) provider.
 */
class WelcomeAndSimulatorMenuTest {
    private static final String SIMULATOR = "Rebound Simulator (offline)";

    @TempDir
    Path configDir;

    private final FxRobot robot = new FxRobot();
    private final List<SettingsTab> settingsOpened = new CopyOnWriteArrayList<>();
    private MockWebServer server;
    private WindowFixture window;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private void openWindow(DesktopHarness harness) throws Exception {
        window = WindowFixture.open(harness, configDir, (owner, tab) -> settingsOpened.add(tab));
    }

    @AfterEach
    void close() throws Exception {
        if (window != null) {
            window.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static void waitFor(Callable<Boolean> condition) throws Exception {
        WindowFixture.waitFor(condition);
    }

    private boolean visible(String query) {
        return robot.lookup(query).tryQuery().map(Node::isVisible).orElse(false);
    }

    private Label label(String text) {
        return robot.lookup((Node n) -> n instanceof Label l && text.equals(l.getText()))
                .queryAs(Label.class);
    }

    /** The menu's title as shown (the mnemonic's underscore removed). */
    private String menuTitle() {
        Menu menu = robot.lookup(".menu-bar").queryAs(MenuBar.class).getMenus().stream()
                .filter(m -> "simulate-menu".equals(m.getId()))
                .findFirst()
                .orElseThrow();
        return menu.getText().replace("_", "");
    }

    private void openSimulateMenu() throws Exception {
        Node title = robot.lookup((Node n) -> n instanceof Labeled l
                        && l.getText() != null
                        && l.getText().replace("_", "").startsWith("Simulate failures"))
                .query();
        robot.clickOn(title);
        waitFor(() -> robot.lookup("#simulate-queued").tryQuery().isPresent());
    }

    @Test
    void theWelcomeNamesTheSimulatorAddsAProviderOnTheProvidersTabAndGoesOnceOneIsSaved() throws Exception {
        openWindow(DesktopHarness.startOffline(configDir, "{}"));
        waitFor(() -> visible("#welcome"));

        assertThat(robot.lookup("#welcome-source").queryAs(Label.class).getText())
                .contains(SIMULATOR);
        assertThat(robot.lookup("#welcome-hint").queryAs(Label.class).getText()).contains("Simulate failures");
        assertThat(robot.lookup("#model-picker .list-cell").queryAllAs(Labeled.class))
                .as("the picker's button shows the display name")
                .anyMatch(cell -> SIMULATOR.equals(cell.getText()));
        assertThat(robot.lookup(".notice").tryQuery())
                .as("the welcome replaces the first-run notice")
                .isEmpty();

        robot.press(KeyCode.ALT).type(KeyCode.A).release(KeyCode.ALT);
        waitFor(() -> settingsOpened.contains(SettingsTab.PROVIDERS));

        SettingsUpdate saved = window.context().settings().update(new ObjectMapper().readTree("""
                {"providers": {"local": {"api": "openai-completions", "baseUrl": "http://127.0.0.1:9/v1",
                                         "models": [{"id": "real-model"}]}}}"""));
        assertThat(saved).isInstanceOf(SettingsUpdate.Applied.class);
        waitFor(() -> !visible("#welcome"));
    }

    @Test
    void theWelcomeShowsItsWrappedTextWholeInTheDefaultWindow() throws Exception {
        openWindow(DesktopHarness.startOffline(configDir, "{}"));
        waitFor(() -> visible("#welcome"));
        WaitForAsyncUtils.waitForFxEvents();

        for (String id : List.of("#welcome-source", "#welcome-hint")) {
            Label text = robot.lookup(id).queryAs(Label.class);
            double needed = WaitForAsyncUtils.asyncFx(() -> text.prefHeight(text.getWidth()))
                    .get();
            assertThat(text.getHeight())
                    .as(id + " height (shorter means cut to '…')")
                    .isGreaterThanOrEqualTo(needed - 0.5);
        }
    }

    @Test
    void theKeyboardAloneQueuesAFailureAltIThenDownThenEnter() throws Exception {
        openWindow(DesktopHarness.startOffline(configDir, "{}"));
        waitFor(() -> visible("#welcome"));

        robot.press(KeyCode.ALT).type(KeyCode.I).release(KeyCode.ALT);
        waitFor(() -> robot.lookup("#simulate-queued").tryQuery().isPresent());
        robot.type(KeyCode.DOWN).type(KeyCode.ENTER);

        waitFor(() -> menuTitle().equals("Simulate failures (3)"));
    }

    @Test
    void overloadTimesThreeFromTheMenuShowsTheRetryBannerThenTheSimulatorsReply() throws Exception {
        openWindow(DesktopHarness.startOffline(configDir, "{\"baseDelayMs\": 200}"));
        waitFor(() -> visible("#welcome"));
        openSimulateMenu();
        assertThat(label("Overload ×3 (529)").isDisabled()).isFalse();

        robot.clickOn(label("Overload ×3 (529)"));
        waitFor(() -> menuTitle().equals("Simulate failures (3)"));
        robot.clickOn("#composer").write("Explain retries").type(KeyCode.ENTER);

        waitFor(() -> !visible("#welcome"));
        waitFor(() -> visible("#retry-banner"));
        waitFor(() -> robot.lookup(".md-h2").tryQuery().isPresent() && !visible("#retry-banner") && visible("#send"));
        assertThat(window.headlines()).anyMatch(h -> h.startsWith("Retrying (1/10)"));
        assertThat(window.headlines()).anyMatch(h -> h.startsWith("Retrying (3/10)"));
        assertThat(window.headlines()).noneMatch(h -> h.startsWith("Retrying (4/10)"));
        assertThat(menuTitle()).isEqualTo("Simulate failures");
        assertThat(robot.lookup((Node n) -> n instanceof Label l && SIMULATOR.equals(l.getText()))
                        .tryQuery())
                .as("the reply is signed with the simulator's name")
                .isPresent();
    }

    @Test
    void withARealProviderTheMenuIsDisabledAndSaysWhy() throws Exception {
        server = new MockWebServer();
        server.start();
        openWindow(DesktopHarness.start(configDir, server.url("/v1").toString(), "{}"));
        waitFor(() -> robot.lookup("#model-picker").queryAs(ComboBox.class).getValue() != null);
        assertThat(robot.lookup("#welcome").tryQuery().map(Node::isVisible)).contains(false);

        robot.press(KeyCode.ALT).type(KeyCode.I).release(KeyCode.ALT);

        waitFor(() -> visible("#simulate-unavailable"));
        assertThat(robot.lookup("#simulate-unavailable").queryAs(Label.class).getText())
                .contains("local/test-model is a real provider");
        assertThat(robot.lookup("#simulate-why").tryQuery())
                .as("the title's info mark carries the reason")
                .isPresent();
        Node overload = label("Overload ×3 (529)");
        assertThat(overload.isDisabled()).isTrue();
        robot.clickOn(overload);
        robot.type(KeyCode.ESCAPE);
        assertThat(window.context().simulator().queued()).isZero();
    }
}
