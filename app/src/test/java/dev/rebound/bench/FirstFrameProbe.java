package dev.rebound.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Runs another main class and, at the first pulse after its first window is shown (once that pulse's CSS and layout
 * are done; the frame's rendering, which follows, is not timed), prints {@code first-frame <JVM uptime in ms> <process CPU time in ms>} to stdout and exits the
 * JVM (from another thread, so shutdown hooks that need the FX thread still run, and a flight recording or log is
 * written out). Used by {@link DesktopStartupBenchmark} to time the start of the Rebound window and of
 * {@link MinimalWindow} the same way; the watching is {@link LeanFirstFrameProbe}'s, which the packaged runtime (no
 * {@code java.management}) uses with the CPU time alone.
 */
public final class FirstFrameProbe {
    private FirstFrameProbe() {}

    /** {@code args}: the main class to run, then its arguments. */
    public static void main(String[] args) throws Exception {
        LeanFirstFrameProbe.run(args, List.of(), () -> {
            long cpuMillis = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class)
                            .getProcessCpuTime()
                    / 1_000_000;
            return ManagementFactory.getRuntimeMXBean().getUptime() + " " + cpuMillis;
        });
    }
}
