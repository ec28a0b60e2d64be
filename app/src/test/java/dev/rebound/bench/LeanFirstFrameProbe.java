package dev.rebound.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.stage.Window;
import javafx.stage.WindowEvent;

/**
 * {@link FirstFrameProbe} for the packaged runtime, which has no {@code java.management}: at the first pulse after
 * the first window is shown it prints {@code first-frame <process CPU time in ms>}, the CPU time read from
 * {@code /proc/self/stat} (user + system, in clock ticks of 10 ms: Linux reports them at 100 Hz), then exits the JVM
 * from another thread. The wall time is taken by the parent, from process start to this line.
 */
public final class LeanFirstFrameProbe {
    /** One first-frame line per process, whichever window (a popup, a dialog) pulses first. */
    private static final AtomicBoolean FIRST = new AtomicBoolean(true);

    private static final AtomicBoolean DONE = new AtomicBoolean(false);

    private LeanFirstFrameProbe() {}

    /**
     * {@code args}: optionally {@code --ready=SELECTOR}, once or more, then the main class to run, then its arguments.
     * With selectors, the probe also waits for the first pulse at which each matches a visible node (Rebound's window:
     * {@code #composer}, the chat ready to type into, and {@code .session-row}, the chat list filled) and prints
     * {@code ready-frame <figures>} then.
     */
    public static void main(String[] args) throws Exception {
        List<String> ready = new ArrayList<>();
        while (args.length > 0 && args[0].startsWith("--ready=")) {
            ready.add(args[0].substring("--ready=".length()));
            args = Arrays.copyOfRange(args, 1, args.length);
        }
        run(args, ready, () -> String.valueOf(cpuMillis()));
    }

    /**
     * Runs {@code args[0]}'s main with the rest of {@code args} and, at the first pulse after its first window is
     * shown (once that pulse's CSS and layout are done; the frame's synchronisation and rendering, which follow, are
     * not timed, for either window), prints {@code first-frame <figures>} to stdout;
     * then, when {@code ready} holds CSS selectors, at the first pulse at which each matches a visible node in that
     * window (maybe the same pulse), {@code ready-frame <figures>}. Then exits the JVM from another thread (so that
     * shutdown hooks needing the FX thread still run).
     *
     * @param ready selectors for {@link Scene#lookup}, or none to stop at the first frame
     */
    static void run(String[] args, List<String> ready, Supplier<String> figures) throws Exception {
        Window.getWindows().addListener((ListChangeListener<Window>) change -> {
            while (change.next()) {
                change.getAddedSubList().forEach(window -> watch(window, ready, figures));
            }
        });
        Class.forName(args[0]).getMethod("main", String[].class).invoke(null, (Object)
                Arrays.copyOfRange(args, 1, args.length));
    }

    private static void watch(Window window, List<String> ready, Supplier<String> figures) {
        if (window.isShowing()) {
            atPulses(window.getScene(), ready, figures);
        } else {
            window.addEventHandler(WindowEvent.WINDOW_SHOWN, e -> atPulses(window.getScene(), ready, figures));
        }
    }

    private static void atPulses(Scene scene, List<String> ready, Supplier<String> figures) {
        scene.addPostLayoutPulseListener(() -> {
            if (DONE.get()) {
                return;
            }
            if (FIRST.getAndSet(false)) {
                System.out.println("first-frame " + figures.get());
            }
            if (ready.stream()
                    .allMatch(selector ->
                            scene.getRoot().lookupAll(selector).stream().anyMatch(LeanFirstFrameProbe::isShown))) {
                if (!ready.isEmpty()) {
                    System.out.println("ready-frame " + figures.get());
                }
                System.out.flush();
                DONE.set(true);
                Thread.ofPlatform().start(() -> System.exit(0));
            }
        });
    }

    /** In the scene and visible, with every ancestor visible. */
    private static boolean isShown(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return node != null;
    }

    /** utime + stime of this process in ms, or -1 where there is no {@code /proc}. */
    static long cpuMillis() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }
}
