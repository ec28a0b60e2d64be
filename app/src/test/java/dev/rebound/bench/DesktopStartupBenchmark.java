package dev.rebound.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Times the start of the Rebound window against a minimal JavaFX window: each is a fresh JVM started the same way
 * ({@code java -cp rebound.jar:test-classes} through {@link FirstFrameProbe}), timed from process start to its first
 * frame, in alternating order after one warm-up start of each. A harness, not a test: run on demand against the
 * packaged jar, on a display (docs/benchmarks.md, "Desktop"). Figures go to stderr and
 * {@code app/target/benchmarks/desktop-startup.txt}.
 */
class DesktopStartupBenchmark {
    private static final int RUNS = Integer.getInteger("bench.runs", 12);
    private static final String GLASS = System.getProperty("bench.glass", "");

    @TempDir
    Path dir;

    @Test
    void measure() throws Exception {
        String classPath = Path.of(System.getProperty("rebound.jar", "target/rebound.jar"))
                + File.pathSeparator
                + Path.of("target", "test-classes");
        List<String> rebound = List.of(
                "dev.rebound.app.Main", "--config-dir", dir.resolve("config").toString());
        List<String> minimal = List.of(MinimalWindow.class.getName());
        String startLoad = FxBench.loadAverage();
        start(classPath, rebound);
        start(classPath, minimal);
        List<long[]> reboundTimes = new ArrayList<>();
        List<long[]> minimalTimes = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            if (i % 2 == 0) {
                reboundTimes.add(start(classPath, rebound));
                minimalTimes.add(start(classPath, minimal));
            } else {
                minimalTimes.add(start(classPath, minimal));
                reboundTimes.add(start(classPath, rebound));
            }
        }
        List<String> report = new ArrayList<>();
        report.add("load average at the start: " + startLoad);
        report.add(String.format(
                Locale.ROOT,
                "%d cores; JDK %s; glass %s; %d starts of each, alternating, after one " + "warm-up start of each",
                Runtime.getRuntime().availableProcessors(),
                Runtime.version(),
                GLASS.isEmpty() ? "default (DISPLAY=" + System.getenv("DISPLAY") + ")" : GLASS,
                RUNS));
        report.add(line("Rebound window", reboundTimes));
        report.add(line("minimal window (Stage + Label)", minimalTimes));
        FxBench.report("desktop-startup.txt", report);
    }

    /**
     * Starts one JVM and returns {process start to first frame, JVM uptime at first frame, process CPU time at first
     * frame}, in milliseconds.
     */
    private static long[] start(String classPath, List<String> mainAndArgs) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                classPath));
        if (!GLASS.isEmpty()) {
            command.addAll(List.of("-Dglass.platform=" + GLASS, "-Dprism.order=sw"));
        }
        command.add(FirstFrameProbe.class.getName());
        command.addAll(mainAndArgs);
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("first-frame ")) {
                    long wall = (System.nanoTime() - started) / 1_000_000;
                    process.waitFor(10, TimeUnit.SECONDS);
                    String[] figures = line.split(" ");
                    return new long[] {wall, Long.parseLong(figures[1]), Long.parseLong(figures[2])};
                }
            }
        } finally {
            process.destroyForcibly();
        }
        throw new IllegalStateException(mainAndArgs.getFirst() + " showed no window (exit " + process.waitFor() + ")");
    }

    private static String line(String name, List<long[]> times) {
        long[] wall = times.stream().mapToLong(t -> t[0]).sorted().toArray();
        long[] uptime = times.stream().mapToLong(t -> t[1]).sorted().toArray();
        long[] cpu = times.stream().mapToLong(t -> t[2]).sorted().toArray();
        return String.format(
                Locale.ROOT,
                "%s: process start to first frame median %d ms (min %d, p25 %d, p75 %d, "
                        + "max %d); JVM uptime at first frame median %d ms (min %d, max %d); process CPU time until "
                        + "the first frame median %d ms (min %d, p25 %d, p75 %d, max %d); all, in order: %s",
                name,
                median(wall),
                wall[0],
                quartile(wall, 1),
                quartile(wall, 3),
                wall[wall.length - 1],
                median(uptime),
                uptime[0],
                uptime[uptime.length - 1],
                median(cpu),
                cpu[0],
                quartile(cpu, 1),
                quartile(cpu, 3),
                cpu[cpu.length - 1],
                times.stream().map(t -> Long.toString(t[0])).toList());
    }

    private static long median(long[] sorted) {
        return quartile(sorted, 2);
    }

    private static long quartile(long[] sorted, int q) {
        double position = (sorted.length - 1) * q / 4.0;
        int low = (int) Math.floor(position);
        int high = (int) Math.ceil(position);
        return Math.round(sorted[low] + (sorted[high] - sorted[low]) * (position - low));
    }
}
