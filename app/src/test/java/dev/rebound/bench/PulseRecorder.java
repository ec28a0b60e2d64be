package dev.rebound.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javafx.animation.AnimationTimer;

/**
 * Records the time of every FX pulse with an {@link AnimationTimer} (its {@code handle} runs once per pulse, on the FX
 * thread, with the pulse's time stamp), so the gaps between pulses show how long the FX thread was kept from painting.
 * Create, start and read it on the FX thread.
 */
final class PulseRecorder {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long[] times = new long[1 << 14];
    private long[] cpu = new long[1 << 14];
    private int count;
    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            if (count == times.length) {
                times = Arrays.copyOf(times, count * 2);
                cpu = Arrays.copyOf(cpu, count * 2);
            }
            cpu[count] = threads.getCurrentThreadCpuTime();
            times[count++] = now;
        }
    };

    void start() {
        timer.start();
    }

    void stop() {
        timer.stop();
    }

    /** How many pulses were recorded so far: a mark to take gaps from. */
    int mark() {
        return count;
    }

    /** The gaps between the pulses recorded since {@code mark}, sorted, in nanoseconds. */
    long[] sortedGapsSince(int mark) {
        long[] gaps = new long[Math.max(0, count - mark - 1)];
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = times[mark + i + 1] - times[mark + i];
        }
        Arrays.sort(gaps);
        return gaps;
    }

    /**
     * For each of {@code parts} equal stretches of time since {@code mark}: the median gap between pulses and the FX
     * thread's CPU time per pulse (all its work between two pulses, divided by their number), in milliseconds — how
     * the cost of a frame develops while a reply grows. Flat if the work per frame does not depend on the reply's
     * length.
     */
    String costOverTime(int mark, int parts) {
        if (count - mark < 2) {
            return "no pulses";
        }
        long first = times[mark];
        long span = times[count - 1] - first + 1;
        List<List<Long>> gaps = new ArrayList<>();
        long[] cpuPerPart = new long[parts];
        for (int p = 0; p < parts; p++) {
            gaps.add(new ArrayList<>());
        }
        for (int i = mark + 1; i < count; i++) {
            int part = (int) ((times[i] - first) * parts / span);
            gaps.get(part).add(times[i] - times[i - 1]);
            cpuPerPart[part] += cpu[i] - cpu[i - 1];
        }
        List<String> medians = new ArrayList<>();
        List<String> cpuPerPulse = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            long[] sorted =
                    gaps.get(p).stream().mapToLong(Long::longValue).sorted().toArray();
            medians.add(sorted.length == 0 ? "-" : String.format(Locale.ROOT, "%.0f", percentile(sorted, 50) / 1e6));
            cpuPerPulse.add(
                    sorted.length == 0 ? "-" : String.format(Locale.ROOT, "%.1f", cpuPerPart[p] / 1e6 / sorted.length));
        }
        return "median gap " + String.join(" / ", medians) + " ms, FX CPU per pulse " + String.join(" / ", cpuPerPulse)
                + " ms";
    }

    /** Percentiles, the maximum and the counts of long gaps, in one line. */
    static String summary(long[] sortedGaps) {
        if (sortedGaps.length == 0) {
            return "no pulses";
        }
        return String.format(
                Locale.ROOT,
                "%,d pulses; gap p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, "
                        + "max %.1f ms; gaps over 50 ms: %d, over 100 ms: %d, over 250 ms: %d",
                sortedGaps.length + 1,
                percentile(sortedGaps, 50) / 1e6,
                percentile(sortedGaps, 90) / 1e6,
                percentile(sortedGaps, 99) / 1e6,
                percentile(sortedGaps, 99.9) / 1e6,
                sortedGaps[sortedGaps.length - 1] / 1e6,
                over(sortedGaps, 50),
                over(sortedGaps, 100),
                over(sortedGaps, 250));
    }

    static long percentile(long[] sorted, double p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static long over(long[] sorted, long millis) {
        return Arrays.stream(sorted).filter(gap -> gap > millis * 1_000_000).count();
    }
}
