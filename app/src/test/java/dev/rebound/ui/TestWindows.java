package dev.rebound.ui;

import dev.rebound.session.SessionFactory;
import dev.rebound.ui.view.ChatWindow;
import dev.rebound.ui.view.FxTicker;
import dev.rebound.ui.view.LinkOpener;
import dev.rebound.ui.view.SettingsOpener;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * The chat window as the UI tests and the desktop benchmarks show it: {@link DesktopApp#show} with the context's
 * remembered preferences, {@code Platform::runLater} and the real ticker. Call on the FX thread.
 */
public final class TestWindows {
    private TestWindows() {}

    /** A window that opens its first chat in the background, opening no links and no settings window. */
    public static ChatWindow show(Stage stage, DesktopContext context) {
        return show(stage, context, null, url -> {}, (owner, tab) -> {});
    }

    /**
     * @param first the chat made before the window, or null to open one in the background
     */
    public static ChatWindow show(
            Stage stage,
            DesktopContext context,
            SessionFactory.Opened first,
            LinkOpener links,
            SettingsOpener settings) {
        return DesktopApp.show(
                stage,
                context,
                first,
                UiPreferences.load(context.preferencesFile()),
                Platform::runLater,
                new FxTicker(),
                links,
                settings);
    }
}
