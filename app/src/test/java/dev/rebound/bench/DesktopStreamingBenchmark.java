package dev.rebound.bench;

import static dev.rebound.bench.FxBench.onFx;
import static dev.rebound.bench.FxBench.waitFor;

import com.sun.management.OperatingSystemMXBean;
import dev.rebound.app.DesktopHarness;
import dev.rebound.ui.DesktopContext;
import dev.rebound.ui.TestWindows;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.scene.Node;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Streams long replies at 2,000 tokens/s into the real chat window on the real session core, from {@code rebound
 * simulate} in a child process (so the simulator's CPU is not counted), and measures the gaps between FX pulses and
 * this process's CPU time per token — for a reply of {@code bench.seconds} (60) seconds and one twice as long, in one
 * JVM after a short warm-up reply, so the ratio of the two shows whether rendering is incremental. A harness, not a
 * test: run on demand (docs/benchmarks.md, "Desktop"). Figures go to stderr and
 * {@code app/target/benchmarks/desktop-streaming.txt}.
 */
class DesktopStreamingBenchmark {
    private static final int RATE = Integer.getInteger("bench.rate", 2_000);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 60);
    private static final Pattern LISTENING = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+/v1)");

    @TempDir
    Path configDir;

    private final FxRobot robot = new FxRobot();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);

    @Test
    void measure() throws Exception {
        Process simulator = startSimulator();
        List<String> report = new ArrayList<>();
        try (DesktopHarness harness = DesktopHarness.start(configDir, simulatorUrl(simulator), "{}")) {
            FxToolkit.registerPrimaryStage();
            DesktopContext context = harness.context(null);
            Stage stage = FxToolkit.setupFixture(() -> {
                Stage s = new Stage();
                TestWindows.show(s, context);
                return s;
            });
            PulseRecorder pulses = onFx(() -> {
                PulseRecorder recorder = new PulseRecorder();
                recorder.start();
                return recorder;
            });
            long fxThread = onFx(() -> Thread.currentThread().threadId());
            report.add(String.format(
                    Locale.ROOT,
                    "platform %s; %d cores; JDK %s; simulator at %,d tokens/s; load average at the " + "start %s",
                    FxBench.platform(),
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.version(),
                    RATE,
                    FxBench.loadAverage()));
            waitFor(30, () -> robot.lookup("#composer").tryQuery().isPresent());
            stream(RATE * 5, pulses, fxThread, "warm-up");
            report.add(stream(RATE * SECONDS, pulses, fxThread, SECONDS + " s reply"));
            report.add(stream(RATE * SECONDS * 2, pulses, fxThread, SECONDS * 2 + " s reply"));
            onFx(() -> {
                pulses.stop();
                stage.hide();
                return null;
            });
        } finally {
            simulator.destroy();
        }
        FxBench.report("desktop-streaming.txt", report);
    }

    /** Opens a new chat, streams a reply of {@code tokens} tokens into it and measures while it streams. */
    private String stream(int tokens, PulseRecorder pulses, long fxThread, String label) throws Exception {
        robot.clickOn("#new-chat");
        waitFor(
                30,
                () -> robot.lookup(".chat-list")
                                .tryQuery()
                                .map(list -> ((ListView<?>) list).getItems().isEmpty())
                                .orElse(false)
                        && robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false));
        robot.clickOn("#composer").write("answer in " + tokens + " tokens");
        // Looked up once, before Enter: a lookup walks the whole scene (the FX thread would pay for every poll), and
        // walked from this thread while the FX thread adds the prompt's row it can fail mid-walk.
        Node stop = onFx(() -> robot.lookup("#stop").query());
        Node send = onFx(() -> robot.lookup("#send").query());
        Map<Long, Long> threadsBefore = threadCpu();
        int mark = onFx(pulses::mark);
        long cpuBefore = os.getProcessCpuTime();
        long fxBefore = threads.getThreadCpuTime(fxThread);
        long start = System.nanoTime();
        robot.type(KeyCode.ENTER);
        waitFor(30, stop::isVisible);
        waitFor(tokens / RATE * 3L + 60, send::isVisible);
        long wall = System.nanoTime() - start;
        long cpu = os.getProcessCpuTime() - cpuBefore;
        long fxCpu = threads.getThreadCpuTime(fxThread) - fxBefore;
        long[] gaps = onFx(() -> pulses.sortedGapsSince(mark));
        String overTime = onFx(() -> pulses.costOverTime(mark, 6));
        if (robot.lookup(".reply-error").tryQuery().isPresent()) {
            throw new IllegalStateException(label + ": the reply failed");
        }
        return String.format(
                Locale.ROOT,
                "%s: %,d tokens in %.1f s; process CPU %.1f s = %.0f µs/token (FX thread "
                        + "%.1f s = %.0f µs/token); %s; in each sixth of the time: %s; busiest threads: %s",
                label,
                tokens,
                wall / 1e9,
                cpu / 1e9,
                cpu / 1e3 / tokens,
                fxCpu / 1e9,
                fxCpu / 1e3 / tokens,
                PulseRecorder.summary(gaps),
                overTime,
                busiest(threadsBefore, threadCpu()));
    }

    private Map<Long, Long> threadCpu() {
        Map<Long, Long> cpu = new HashMap<>();
        for (long id : threads.getAllThreadIds()) {
            cpu.put(id, threads.getThreadCpuTime(id));
        }
        return cpu;
    }

    /** The four threads that used the most CPU between two samples. */
    private String busiest(Map<Long, Long> before, Map<Long, Long> after) {
        List<String> names = new ArrayList<>();
        after.entrySet().stream()
                .sorted((a, b) -> Long.compare(
                        b.getValue() - before.getOrDefault(b.getKey(), 0L),
                        a.getValue() - before.getOrDefault(a.getKey(), 0L)))
                .limit(4)
                .forEach(e -> {
                    ThreadInfo info = threads.getThreadInfo(e.getKey());
                    names.add(String.format(
                            Locale.ROOT,
                            "%s %.1f s",
                            info == null ? "(ended)" : info.getThreadName(),
                            (e.getValue() - before.getOrDefault(e.getKey(), 0L)) / 1e9));
                });
        return String.join(", ", names);
    }

    /** {@code rebound simulate} from this test's class path, in its own JVM. */
    private static Process startSimulator() throws Exception {
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.rebound.app.Main",
                        "simulate",
                        "--port",
                        "0",
                        "--tokens-per-second",
                        Integer.toString(RATE),
                        "--seed",
                        "7")
                .redirectErrorStream(true)
                .start();
    }

    private static String simulatorUrl(Process simulator) throws Exception {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(simulator.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                Thread.ofVirtual().start(() -> out.lines().forEach(l -> {}));
                return m.group(1);
            }
        }
        throw new IllegalStateException("the simulator exited without listening");
    }
}
