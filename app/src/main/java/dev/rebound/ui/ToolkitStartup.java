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
 * The JavaFX toolkit started ahead of the window, so that bringing it up overlaps with parsing the command line and
 * loading the app's services, and parsing the theme with making the window's nodes: together they are most of the time
 * to the first frame. Starting it does not log, so it does not wait for logging to be set up.
 */
public final class ToolkitStartup {
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private volatile Path preferencesFile;
    /** Guarded by {@code this}. */
    private UiPreferences preferences;

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

    /**
     * Names the file of the window's preferences (the theme among them), which {@link #preferences} reads: after the
     * services, so that a file that cannot be read is reported in the log file too (it then gives the defaults,
     * {@link UiPreferences#load}).
     */
    public void prepare(Path preferencesFile) {
        this.preferencesFile = preferencesFile;
    }

    /** The window's preferences, read from the file {@link #prepare} named on the first call; any thread. */
    synchronized UiPreferences preferences() {
        if (preferences == null) {
            preferences = UiPreferences.load(preferencesFile);
        }
        return preferences;
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
     * Waits until the toolkit is up, then sets the theme of the {@link #preferences} as the application's stylesheet, from
     * the calling thread: JavaFX parses it on the FX thread, in the background of the caller, which can go on to make
     * the window's nodes. Set before any control is made, so that no control's first use sets JavaFX's default theme
     * (Modena) in its place, parsed for nothing.
     *
     * @throws ExecutionException when the toolkit could not start (no display, typically)
     */
    UiPreferences awaitPrepared() throws ExecutionException, InterruptedException {
        started.get();
        UiPreferences read = preferences();
        ChatWindow.applyTheme(read.dark());
        return read;
    }
}
