package dev.rebound.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures what plugins cost a chat: the time of the same scripted turn (a streamed reply of 200 chunks over
 * loopback, prompt written to final {@code agent_end} read) in the real jar with no plugins, with the recording plugin,
 * and with the hostile set (throws, blocks, linkage, flood and the broken archives), each in its own process. Also the
 * size of the log folder the flooding plugin leaves. A harness, not a test: it asserts nothing about time and is run
 * on demand: {@code ./mvnw -pl plugin-api,app verify -Dit.test=PluginOverheadBenchmark -Dtest=NoSuchTest
 * -Dsurefire.failIfNoSpecifiedTests=false}. Figures go to stderr and {@code app/target/benchmarks/plugin-overhead.txt};
 * docs/benchmarks.md records them.
 */
class PluginOverheadBenchmark {
    private static final int WARM_UP = Integer.getInteger("bench.warmUp", 10);
    private static final int TURNS = Integer.getInteger("bench.turns", 40);
    private static final int PIECES = 200;

    @TempDir
    Path work;

    @Test
    void measure() throws Exception {
        Path recording = Files.createDirectories(work.resolve("recording"));
        Path hostile = Files.createDirectories(work.resolve("hostile"));
        PluginFixtures.recordingZip(recording);
        PluginFixtures.hostileSet(hostile);
        List<String> report = new ArrayList<>();
        report.add(String.format(
                Locale.ROOT,
                "turn of a %d-chunk streamed reply, %d turns after %d warm-up, " + "one process each",
                PIECES,
                TURNS,
                WARM_UP));
        report.add(run("no plugins", "--no-plugins"));
        report.add(run("recording plugin", "--plugins-dir", recording.toString()));
        report.add(run("hostile set", "--plugins-dir", hostile.toString()));
        Path out = Path.of("target", "benchmarks", "plugin-overhead.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
        report.forEach(System.err::println);
    }

    private String run(String name, String... args) throws Exception {
        Path configDir = Files.createDirectories(work.resolve(name.replace(' ', '-')));
        ScriptedServer script = new ScriptedServer();
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(script);
            server.start();
            PluginFixtures.configure(
                    configDir, server.url("/v1").toString(), "sk-ant-aaaaaaaaaaaaaaaa", "sk-ant-bbbbbbbbbbbbbbbb");
            List<Long> times;
            try (ReboundProcess rebound = PluginFixtures.startRpc(configDir, args)) {
                times = PluginFixtures.turnNanos(rebound, script, WARM_UP, TURNS, PIECES);
                rebound.closeStdin();
                rebound.waitForExit(PluginFixtures.WAIT);
            }
            return String.format(
                    Locale.ROOT,
                    "%-16s p50 %6.1f ms  p90 %6.1f ms  max %6.1f ms  log folder %,d bytes",
                    name,
                    pct(times, 50),
                    pct(times, 90),
                    times.getLast() / 1e6,
                    size(configDir.resolve("logs")));
        }
    }

    private static double pct(List<Long> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, sorted.size() * p / 100)) / 1e6;
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }
}
