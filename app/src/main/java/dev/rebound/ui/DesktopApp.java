package dev.rebound.ui;

import dev.rebound.ui.model.ChatWindowViewModel;
import dev.rebound.ui.model.Ticker;
import dev.rebound.ui.settings.SettingsOpener;
import dev.rebound.ui.view.ChatWindow;
import dev.rebound.ui.view.FxTicker;
import dev.rebound.ui.view.LinkOpener;
import dev.rebound.ui.view.SystemBrowser;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts the JavaFX toolkit and shows the chat window until it is closed. */
public final class DesktopApp {
    private static final Logger LOG = LoggerFactory.getLogger(DesktopApp.class);

    private DesktopApp() {
    }

    /**
     * Shows the chat window and returns when it is closed.
     *
     * @return the process exit code
     */
    public static int run(DesktopContext context) throws InterruptedException {
        UiPreferences preferences = UiPreferences.load(context.preferencesFile());
        CountDownLatch closed = new CountDownLatch(1);
        Platform.setImplicitExit(false);
        Platform.startup(() -> {
            try {
                Stage stage = new Stage();
                stage.setOnHidden(e -> closed.countDown());
                show(stage, context, preferences, Platform::runLater, new FxTicker(),
                        new SystemBrowser(context.background(), System.getProperty("os.name", "")),
                        new SettingsOpener(context.settingsServices(), Platform::runLater, context.background()));
            } catch (RuntimeException e) {
                LOG.error("The window could not be opened", e);
                closed.countDown();
            }
        });
        closed.await();
        Platform.exit();
        return 0;
    }

    /**
     * Builds the chat window on {@code stage} and shows it at once; the first chat opens in the background. Call on
     * the FX thread. The window's view-models are closed, with their sessions, when the stage is hidden.
     *
     * @param fx how work reaches the FX thread
     * @param settingsOpener opens the settings window (Ctrl+,)
     */
    public static ChatWindow show(Stage stage, DesktopContext context, UiPreferences preferences, Executor fx,
                                  Ticker ticker, LinkOpener links, Consumer<Window> settingsOpener) {
        ChatWindowViewModel model = new ChatWindowViewModel(new ChatWindowViewModel.Dependencies(
                context.sessions(), context.catalogue(), context.settings(), fx, context.background(),
                context.clock(), context.zone(), ticker));
        ChatWindow window = new ChatWindow(model, links, context.zone(), settingsOpener, preferences.dark(),
                dark -> context.background().execute(() -> preferences.saveDark(dark)));
        stage.setTitle("Rebound");
        stage.setScene(window.scene());
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, e -> {
            window.dispose();
            model.close();
        });
        stage.show();
        model.start(context.resume(), context.startupNotices());
        return window;
    }
}
