package dev.rebound.ui;

import dev.rebound.ui.view.ChatWindow;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;

/**
 * The JavaFX toolkit started ahead of the window, so that bringing it up and loading the theme overlap with parsing
 * the command line and loading the app's services: together they are most of the time to the first frame. Nothing
 * here logs, so starting it does not wait for logging to be set up.
 */
public final class ToolkitStartup {
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private volatile CompletableFuture<UiPreferences> prepared;

    private ToolkitStartup() {}

    /** Starts the toolkit on a thread of its own and returns at once. */
    public static ToolkitStartup begin() {
        ToolkitStartup startup = new ToolkitStartup();
        Thread.ofPlatform().daemon(true).name("rebound-fx-startup").start(() -> {
            try {
                Platform.startup(() -> {
                    Platform.setImplicitExit(false);
                    startup.started.complete(null);
                });
            } catch (RuntimeException | Error e) {
                startup.started.completeExceptionally(e);
            }
        });
        return startup;
    }

    /** Once the toolkit is up, reads the window's preferences and loads the chosen theme, on the FX thread. */
    public void prepare(Path preferencesFile) {
        prepared = started.thenApplyAsync(
                ignored -> {
                    UiPreferences preferences = UiPreferences.load(preferencesFile);
                    ChatWindow.applyTheme(preferences.dark());
                    return preferences;
                },
                Platform::runLater);
    }

    /** The window will not be shown (another mode ran, or the app failed to start): lets the toolkit go. */
    public void abandon() {
        started.thenRun(Platform::exit);
    }

    /**
     * For a process about to exit without the window: waits, at most {@code limit}, until the toolkit is up, and no
     * more. A process that exits while the toolkit is still starting gets a stack trace from it ("Shutdown in
     * progress"), and one told to exit as it comes up prints GTK's complaints; once it is up, the JVM's exit takes it
     * down quietly.
     */
    public void awaitStartedBeforeExit(Duration limit) {
        try {
            started.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // It could not start (no display) or is slow: nothing more to wait for.
        }
    }

    /**
     * Waits until the toolkit is up (not for {@link #prepare}'s theme).
     *
     * @throws ExecutionException when the toolkit could not start (no display, typically)
     */
    void awaitStarted() throws ExecutionException, InterruptedException {
        started.get();
    }

    /**
     * Waits for {@link #prepare}.
     *
     * @throws ExecutionException when the toolkit could not start (no display, typically)
     */
    UiPreferences awaitPrepared() throws ExecutionException, InterruptedException {
        return prepared.get();
    }
}
