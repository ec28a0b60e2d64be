package dev.rebound.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.collections.ListChangeListener;
import javafx.scene.Scene;
import javafx.stage.Window;
import javafx.stage.WindowEvent;

/**
 * Runs another main class and, at the first pulse after its first window is shown (layout done, the frame handed to
 * the render thread), prints {@code first-frame <JVM uptime in ms> <process CPU time in ms>} to stdout and exits the JVM (from another thread,
 * so shutdown hooks that need the FX thread still run, and a flight recording or log is written out). Used by
 * {@link DesktopStartupBenchmark} to time the start of the Rebound window and of {@link MinimalWindow} the same way.
 */
public final class FirstFrameProbe {
    private FirstFrameProbe() {}

    /** {@code args}: the main class to run, then its arguments. */
    public static void main(String[] args) throws Exception {
        Window.getWindows().addListener((ListChangeListener<Window>) change -> {
            while (change.next()) {
                change.getAddedSubList().forEach(FirstFrameProbe::watch);
            }
        });
        Class.forName(args[0]).getMethod("main", String[].class).invoke(null, (Object)
                Arrays.copyOfRange(args, 1, args.length));
    }

    private static void watch(Window window) {
        if (window.isShowing()) {
            atNextPulse(window.getScene());
        } else {
            window.addEventHandler(WindowEvent.WINDOW_SHOWN, e -> atNextPulse(window.getScene()));
        }
    }

    private static void atNextPulse(Scene scene) {
        AtomicBoolean first = new AtomicBoolean(true);
        scene.addPostLayoutPulseListener(() -> {
            if (!first.getAndSet(false)) {
                return;
            }
            long cpuMillis = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class)
                            .getProcessCpuTime()
                    / 1_000_000;
            System.out.println(
                    "first-frame " + ManagementFactory.getRuntimeMXBean().getUptime() + " " + cpuMillis);
            System.out.flush();
            Thread.ofPlatform().start(() -> System.exit(0));
        });
    }
}
