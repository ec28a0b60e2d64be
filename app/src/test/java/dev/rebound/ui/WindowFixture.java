package dev.rebound.ui;

import dev.rebound.app.DesktopHarness;
import dev.rebound.session.SessionFactory;
import dev.rebound.ui.view.LinkOpener;
import dev.rebound.ui.view.SettingsOpener;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The real chat window for robot tests: shown from a desktop context with the production FX executor and ticker,
 * every retry-banner headline recorded (a short countdown can come and go between two looks). {@link #close()} hides it
 * and closes the app's services. Call {@code FxToolkit.registerPrimaryStage()} first.
 */
final class WindowFixture implements AutoCloseable {
    private static final long WAIT_SECONDS = 20;

    private final DesktopHarness harness;
    private final DesktopContext context;
    private final Stage stage;
    private final List<String> headlines = new CopyOnWriteArrayList<>();

    /** The window's stage. */
    Stage stage() {
        return stage;
    }

    private WindowFixture(DesktopHarness harness, DesktopContext context, Stage stage) {
        this.harness = harness;
        this.context = context;
        this.stage = stage;
    }

    /**
     * Shows the window of a new chat and waits until its composer and banner exist. Links are not opened. Closes
     * {@code harness} when the window cannot be shown.
     */
    static WindowFixture open(DesktopHarness harness, Path configDir, SettingsOpener settings) throws Exception {
        return open(harness, configDir, settings, url -> {}, null);
    }

    /** Shows the window of a saved chat ({@code --session}), or of a new one when {@code resume} is null. */
    static WindowFixture open(DesktopHarness harness, Path configDir, SettingsOpener settings, Path resume)
            throws Exception {
        return open(harness, configDir, settings, url -> {}, resume);
    }

    /** As {@link #open(DesktopHarness, Path, SettingsOpener)}, with links opened by {@code links}. */
    static WindowFixture open(DesktopHarness harness, Path configDir, SettingsOpener settings, LinkOpener links)
            throws Exception {
        return open(harness, configDir, settings, links, null);
    }

    private static WindowFixture open(
            DesktopHarness harness, Path configDir, SettingsOpener settings, LinkOpener links, Path resume)
            throws Exception {
        DesktopContext context = harness.context(resume);
        // As DesktopApp.run does, a chat is made before the window, so that the first frame holds it (a new one here:
        // DesktopApp.firstChat may reopen the last start's empty chat). The window is made here on the FX thread;
        // DesktopApp.run makes it on the main thread, behind a HeldExecutor.
        SessionFactory.Opened first = resume == null ? context.sessions().create() : null;
        Stage stage;
        try {
            stage = FxToolkit.setupFixture(() -> {
                Stage s = new Stage();
                TestWindows.show(s, context, first, links, settings);
                return s;
            });
        } catch (Exception | AssertionError e) {
            harness.close();
            throw e;
        }
        WindowFixture window = new WindowFixture(harness, context, stage);
        FxRobot robot = new FxRobot();
        waitFor(() -> robot.lookup("#composer").tryQuery().isPresent());
        // The banner joins the chat's bottom the first time it shows: its headline is followed from then on.
        VBox bottom = robot.lookup(".chat-bottom").queryAs(VBox.class);
        FxToolkit.setupFixture(() -> {
            Runnable follow = new Runnable() {
                private boolean following;

                @Override
                public void run() {
                    Node found = bottom.lookup("#retry-headline");
                    if (!following && found instanceof Label headline) {
                        following = true;
                        window.headlines.add(headline.getText());
                        headline.textProperty().addListener((obs, old, now) -> window.headlines.add(now));
                    }
                }
            };
            follow.run();
            bottom.getChildren().addListener((ListChangeListener<Node>) change -> follow.run());
        });
        return window;
    }

    /** What the window was built from (its settings store, its simulator). */
    DesktopContext context() {
        return context;
    }

    /** Every headline the retry banner showed, in order. */
    List<String> headlines() {
        return headlines;
    }

    /** Waits until {@code condition}, checked on the FX thread, holds. */
    static void waitFor(Callable<Boolean> condition) throws Exception {
        FxWait.until(condition, WAIT_SECONDS);
    }

    @Override
    public void close() throws Exception {
        try {
            FxToolkit.setupFixture(stage::hide);
        } finally {
            harness.close();
        }
    }
}
