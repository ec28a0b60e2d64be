package dev.rebound.ui;

import dev.rebound.session.SessionFactory;
import dev.rebound.ui.model.ChatWindowViewModel;
import dev.rebound.ui.model.Ticker;
import dev.rebound.ui.settings.SettingsWindowOpener;
import dev.rebound.ui.view.ChatWindow;
import dev.rebound.ui.view.FxTicker;
import dev.rebound.ui.view.LinkOpener;
import dev.rebound.ui.view.SettingsOpener;
import dev.rebound.ui.view.SystemBrowser;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import javafx.application.Platform;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts the JavaFX toolkit and shows the chat window until it is closed. */
public final class DesktopApp {
    private static final Logger LOG = LoggerFactory.getLogger(DesktopApp.class);

    private DesktopApp() {}

    /**
     * Shows the chat window and returns when it is closed.
     *
     * @param startup the toolkit, started and {@linkplain ToolkitStartup#prepare prepared}
     * @return the process exit code
     * @throws CannotOpenException when there is no display (or JavaFX cannot start), with what to do instead
     */
    public static int run(ToolkitStartup startup, DesktopContext context)
            throws InterruptedException, CannotOpenException {
        UiPreferences preferences;
        SessionFactory.Opened made = null;
        try {
            // While the toolkit comes up.
            made = context.resume() == null ? firstChat(context, startup.preferences()) : null;
            // Sets the theme, which the FX thread then parses while this thread makes the window's nodes.
            preferences = startup.awaitPrepared();
        } catch (InterruptedException | RuntimeException | Error e) {
            release(context, made);
            throw e;
        } catch (ExecutionException e) {
            release(context, made);
            LOG.info("JavaFX could not start", e.getCause());
            throw new CannotOpenException(
                    "the desktop window could not be opened (" + e.getCause().getMessage()
                            + "). It needs a graphical desktop session; without one, use --mode rpc or -p MESSAGE. Details "
                            + "are in the log file.");
        }
        SessionFactory.Opened first = made;
        HeldExecutor fx = new HeldExecutor(Platform::runLater);
        Built built;
        try {
            built = build(
                    context,
                    first,
                    preferences,
                    fx,
                    new FxTicker(),
                    new SystemBrowser(context.background(), System.getProperty("os.name", "")),
                    new SettingsWindowOpener(context.settingsServices(), Platform::runLater, context.background()));
        } catch (RuntimeException | Error e) {
            LOG.error("The window could not be made", e);
            release(context, first);
            throw new CannotOpenException(
                    "the desktop window could not be made (" + e + "). Details are in the log file.");
        }
        CountDownLatch closed = new CountDownLatch(1);
        Platform.runLater(() -> {
            try {
                Stage stage = new Stage();
                built.showOn(stage);
                // After showOn()'s own handler, so the chats are closed before the host shuts its executors.
                stage.addEventHandler(WindowEvent.WINDOW_HIDDEN, e -> closed.countDown());
            } catch (RuntimeException | Error e) {
                // Caught whatever it is: the main thread waits for the window to close.
                LOG.error("The window could not be opened", e);
                built.model().close(); // with the first chat, if it was attached
                closed.countDown();
            } finally {
                // What the window's models asked of the FX thread while it was being made, now that it is shown.
                fx.release();
            }
        });
        closed.await();
        Platform.exit();
        return 0;
    }

    /**
     * The chat the window opens with, made on the calling (main) thread while the toolkit comes up, so that the
     * window's first frame already holds it: a chat made after the window was shown arrived a few hundred
     * milliseconds after a first frame with a spinner, and was laid out and styled in a second pass (docs/startup.md,
     * "The window's first frame"). The chat the window started with last time when it still holds nothing ({@link
     * SessionFactory#reuseEmptyOrCreate}), so starting and closing the app, or a start on a machine without a display,
     * does not leave one more empty chat each time; remembered, in the background, for the next start. Null, and the
     * chat is made in the background as before, if making it failed.
     */
    static SessionFactory.Opened firstChat(DesktopContext context, UiPreferences preferences) {
        try {
            SessionFactory.Opened chat = context.sessions().reuseEmptyOrCreate(preferences.startChat());
            String id = chat.session().id();
            if (!id.equals(preferences.startChat())) {
                context.background().execute(() -> preferences.saveStartChat(id));
            }
            return chat;
        } catch (RuntimeException e) {
            LOG.warn("The first chat could not be made before the window; trying again in the background", e);
            return null;
        }
    }

    /** Closes, in the background, a first chat no window will show or close (null: nothing to do). */
    private static void release(DesktopContext context, SessionFactory.Opened chat) {
        if (chat != null) {
            context.background().execute(chat.session()::close);
        }
    }

    /**
     * Builds the chat window on {@code stage} and shows it at once: with {@code first} in it when given, else with
     * the first chat (saved, or new) opening in the background. Call on the FX thread. The window's view-models are
     * closed, with their sessions, when the stage is hidden.
     *
     * @param first the chat to show from the first frame, made before the window ({@link #run}); null to open
     *     {@code context.resume()} or a new chat in the background
     * @param fx how work reaches the FX thread
     * @param settingsOpener opens the settings window (Ctrl+, on the retry tab; the welcome view's "Add a real
     *     provider" on the providers tab)
     */
    public static ChatWindow show(
            Stage stage,
            DesktopContext context,
            SessionFactory.Opened first,
            UiPreferences preferences,
            Executor fx,
            Ticker ticker,
            LinkOpener links,
            SettingsOpener settingsOpener) {
        return build(context, first, preferences, fx, ticker, links, settingsOpener)
                .showOn(stage);
    }

    /**
     * The window's view-model and nodes, with {@code first} attached, not yet in a scene: made on the FX thread
     * ({@link #show}), or on the main thread while the FX thread parses the theme ({@link #run}), {@code fx} then
     * holding the models' FX work until the window is shown.
     */
    private static Built build(
            DesktopContext context,
            SessionFactory.Opened first,
            UiPreferences preferences,
            Executor fx,
            Ticker ticker,
            LinkOpener links,
            SettingsOpener settingsOpener) {
        ChatWindowViewModel model = new ChatWindowViewModel(new ChatWindowViewModel.Dependencies(
                context.sessions(),
                context.catalogue(),
                context.settings(),
                fx,
                context.background(),
                context.clock(),
                context.zone(),
                ticker,
                context.simulator()));
        ChatWindow window = new ChatWindow(
                model,
                fx,
                links,
                context.zone(),
                settingsOpener,
                preferences.dark(),
                dark -> context.background().execute(() -> preferences.saveDark(dark)));
        window.zoom().set(preferences.zoomPercent());
        window.zoom().percentProperty().addListener((obs, old, now) -> {
            preferences.setZoomPercent(now.intValue());
            context.background().execute(preferences::save);
        });
        if (first != null) {
            model.startWith(first, context.startupNotices());
        }
        return new Built(context, first == null, model, window);
    }

    /** A window made by {@link #build}, to be shown. */
    private record Built(DesktopContext context, boolean openFirstChat, ChatWindowViewModel model, ChatWindow window) {
        /** Shows the window on {@code stage}; on the FX thread. */
        ChatWindow showOn(Stage stage) {
            stage.setTitle("Rebound");
            stage.setScene(window.scene());
            stage.addEventHandler(WindowEvent.WINDOW_HIDDEN, e -> {
                window.dispose();
                model.close();
            });
            stage.show();
            LOG.info("Desktop window shown");
            if (openFirstChat) {
                model.start(context.resume(), context.startupNotices());
            }
            return window;
        }
    }

    /** JavaFX could not start, typically because there is no display. */
    public static final class CannotOpenException extends Exception {
        CannotOpenException(String message) {
            super(message);
        }
    }
}
