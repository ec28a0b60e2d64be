package dev.rebound.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javafx.collections.ListChangeListener;
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
    private LeanFirstFrameProbe() {}

    /** {@code args}: the main class to run, then its arguments. */
    public static void main(String[] args) throws Exception {
        run(args, () -> String.valueOf(cpuMillis()));
    }

    /**
     * Runs {@code args[0]}'s main with the rest of {@code args} and, at the first pulse after its first window is
     * shown (layout done, the frame handed to the render thread), prints {@code first-frame <figures>} to stdout and
     * exits the JVM from another thread (so that shutdown hooks needing the FX thread still run).
     */
    static void run(String[] args, Supplier<String> figures) throws Exception {
        Window.getWindows().addListener((ListChangeListener<Window>) change -> {
            while (change.next()) {
                change.getAddedSubList().forEach(window -> watch(window, figures));
            }
        });
        Class.forName(args[0]).getMethod("main", String[].class).invoke(null, (Object)
                Arrays.copyOfRange(args, 1, args.length));
    }

    private static void watch(Window window, Supplier<String> figures) {
        if (window.isShowing()) {
            atNextPulse(window.getScene(), figures);
        } else {
            window.addEventHandler(WindowEvent.WINDOW_SHOWN, e -> atNextPulse(window.getScene(), figures));
        }
    }

    private static void atNextPulse(Scene scene, Supplier<String> figures) {
        AtomicBoolean first = new AtomicBoolean(true);
        scene.addPostLayoutPulseListener(() -> {
            if (first.getAndSet(false)) {
                System.out.println("first-frame " + figures.get());
                System.out.flush();
                Thread.ofPlatform().start(() -> System.exit(0));
            }
        });
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
