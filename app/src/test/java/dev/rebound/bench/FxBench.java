package dev.rebound.bench;

import com.sun.glass.ui.Application;
import com.sun.prism.GraphicsPipeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.testfx.util.WaitForAsyncUtils;

/** What the desktop benchmarks share: waiting on FX state, the platform in use, the load, the report. */
final class FxBench {
    private FxBench() {}

    /** Runs {@code call} on the FX thread and returns its result. */
    static <T> T onFx(Callable<T> call) throws Exception {
        return WaitForAsyncUtils.asyncFx(call).get(30, TimeUnit.SECONDS);
    }

    /** Polls {@code condition} on the FX thread until it holds. */
    static void waitFor(long seconds, Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> onFx(condition));
    }

    /** The glass platform and Prism pipeline the toolkit runs on, e.g. {@code GtkApplication / ES2Pipeline}. */
    static String platform() throws Exception {
        return onFx(() -> Application.GetApplication().getClass().getSimpleName() + " / "
                + GraphicsPipeline.getPipeline().getClass().getSimpleName());
    }

    /** The machine's load averages (1, 5, 15 minutes) from {@code /proc/loadavg}, or "?" where there is none. */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    /** Writes the report to {@code target/benchmarks/NAME} and to stderr. */
    static void report(String name, List<String> lines) throws Exception {
        Path out = Path.of("target", "benchmarks", name);
        Files.createDirectories(out.getParent());
        List<String> all = new java.util.ArrayList<>(lines);
        all.add("load average at the end: " + loadAverage());
        Files.write(out, all);
        all.forEach(System.err::println);
    }
}
