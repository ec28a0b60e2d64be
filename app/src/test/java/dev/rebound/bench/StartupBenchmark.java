package dev.rebound.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.bench.BenchTable.Row;
import dev.rebound.bench.BenchTable.Series;
import dev.rebound.e2e.Sse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cold start-up of Rebound against a hello-world JVM started the same way, in one run: {@code rebound -p} to its
 * exit with the answer checked on stdout (wall, CPU, peak RSS), RPC mode to its {@code ready} frame, and — on a
 * display, for the packaged app — the window's first frame against a minimal JavaFX window. A harness, not a test:
 * {@code bench/run} runs it (docs/benchmarks.md, "One command"); it writes {@code target/benchmarks/startup.json}.
 *
 * <p>The launcher under test ({@code -Dbench.launcher=auto|package|jar}): the app-image's {@code bin/rebound}
 * ({@code -Dbench.image}, default {@code ../packaging/target/image/rebound}) when it exists, else
 * {@code java -jar target/rebound.jar} with the JDK running this harness. The packaged baselines are started by
 * launchers written like the image's {@code bin/rebound} (a shell script that execs the image's runtime): same
 * script prologue, same runtime, another main class. The full JDK's hello-world
 * ({@code java -jar hello.jar}, default CDS archive on) is measured in every run too, and, for the package, the
 * hello world and the minimal window started through the launcher itself with the JVM options it gives the app; each
 * wall-time target is checked against the fastest of its baselines.
 *
 * <p>CPU time and peak RSS come from GNU time ({@code /usr/bin/time -f}), which reports the kernel's
 * {@code getrusage} figures for the child at its exit: exact, where polling {@code /proc/PID/status} could miss the
 * peak between two polls. The wall time is the harness's own, from {@code ProcessBuilder.start} to the exit (or to the
 * awaited line); GNU time adds the same fork/exec to every command.
 */
class StartupBenchmark {
    private static final int RUNS = Integer.getInteger("bench.runs", 10);
    private static final long TIMEOUT_SECONDS = 120;
    /** The chats saved in the window's config directory before it is timed: a returning user's sidebar. */
    private static final int SAVED_CHATS = 15;

    private static final String ANSWER = "Hello from the benchmark server.";
    private static final Path GNU_TIME = Path.of("/usr/bin/time");

    @TempDir
    Path dir;

    private Path work;

    @Test
    void measure() throws Exception {
        if (!Files.isExecutable(GNU_TIME)) {
            throw new IllegalStateException("GNU time is needed for CPU time and peak RSS: apt-get install -y time");
        }
        work = Path.of("target", "benchmarks", "startup-work").toAbsolutePath();
        deleteTree(work);
        Files.createDirectories(work);
        Path image = Path.of(System.getProperty("bench.image", "../packaging/target/image/rebound"))
                .toAbsolutePath()
                .normalize();
        Path jar =
                Path.of(System.getProperty("rebound.jar", "target/rebound.jar")).toAbsolutePath();
        String choice = System.getProperty("bench.launcher", "auto");
        boolean packaged = switch (choice) {
            case "package" -> true;
            case "jar" -> false;
            default -> Files.isExecutable(image.resolve("bin/rebound"));
        };
        if (packaged && !Files.isExecutable(image.resolve("bin/rebound"))) {
            throw new IllegalStateException("no app-image at " + image + ": ./mvnw -Ppackage -DskipTests package");
        }
        String jdkJava = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path helloJar = jar(work.resolve("hello.jar"), HelloWorld.class, List.of("HelloWorld"));

        List<String> rebound;
        Path probeImage = null;
        List<String> helloSame = null;
        if (packaged) {
            rebound = List.of(image.resolve("bin/rebound").toString());
            probeImage = probeImage(image, helloJar);
            helloSame = List.of(probeImage.resolve("bin/hello").toString());
        } else {
            rebound = List.of(jdkJava, "-jar", jar.toString());
        }
        List<String> helloJdk = List.of(jdkJava, "-jar", helloJar.toString());

        String loadStart = BenchTable.loadAverage();
        Instant started = Instant.now();
        List<Row> rows = new ArrayList<>();
        Map<String, Object> samples = new LinkedHashMap<>();
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) {
                    return Sse.reply("Hello from ", "the benchmark ", "server.");
                }
            });
            server.start();
            Path config = dir.resolve("config");
            Files.createDirectories(config);
            Files.writeString(config.resolve("settings.json"), """
                    { "model": "local/m",
                      "providers": { "local": { "api": "openai-completions", "baseUrl": "%s",
                                                "models": [ { "id": "m" } ] } } }
                    """.formatted(server.url("/v1")));
            rows.addAll(commandLine(rebound, config, helloSame, helloJdk, packaged, samples));
        }
        if (packaged && System.getenv("DISPLAY") != null && !Boolean.getBoolean("bench.noDesktop")) {
            rows.addAll(desktop(probeImage, samples));
        }
        Map<String, Object> fragment = new LinkedHashMap<>();
        fragment.put("benchmark", "startup");
        fragment.put("started", started.toString());
        fragment.put("launcher", packaged ? "package" : "jar");
        fragment.put("reboundCommand", rebound);
        fragment.put("helloWorldCommands", helloSame == null ? List.of(helloJdk) : List.of(helloSame, helloJdk));
        fragment.put("runs", RUNS);
        fragment.put("loadAverageStart", loadStart);
        fragment.put("loadAverageEnd", BenchTable.loadAverage());
        fragment.put("rows", rows);
        fragment.put("samples", samples);
        Path out = BenchTable.writeFragment("startup", fragment);
        System.err.println(BenchTable.JSON.writeValueAsString(rows));
        System.err.println("written: " + out);
    }

    /** {@code -p} and RPC-to-ready against the hello-world baselines, in rotating order after one warm-up round. */
    private List<Row> commandLine(
            List<String> rebound,
            Path config,
            List<String> helloSame,
            List<String> helloJdk,
            boolean packaged,
            Map<String, Object> samples)
            throws Exception {
        String how = packaged ? "packaged launcher" : "java -jar";
        Series pWall = new Series("rebound -p (" + how + "): start → exit, answer printed", "ms", new ArrayList<>());
        Series pCpu = new Series("rebound -p (" + how + "): CPU time (user + sys)", "ms", new ArrayList<>());
        Series pRss = new Series("rebound -p (" + how + "): peak RSS", "MiB", new ArrayList<>());
        Series rpcReady = new Series("rebound --mode rpc (" + how + "): start → ready frame", "ms", new ArrayList<>());
        String sameName = packaged ? "hello-world, same launcher and runtime" : "hello-world, java -jar";
        Series[] same = helloSeries(sameName);
        Series[] jdk = helloSeries("hello-world, full JDK java -jar");
        // Packaged only: the hello world through Rebound's own launcher script with -p's and RPC's arguments, so with
        // the JVM options it gives those modes (no AOT cache): the strictest baseline when those options speed it up.
        Series[] asPrint = helloSeries("hello-world, Rebound's launcher and JVM options as for -p (no AOT cache)");
        Series[] asRpc =
                helloSeries("hello-world, Rebound's launcher and JVM options as for --mode rpc (no AOT cache)");
        List<String> helloAsRebound = helloSame == null
                ? null
                : List.of(Path.of(helloSame.getFirst())
                        .resolveSibling("hello-as-rebound")
                        .toString());

        List<ThrowingRunnable> tasks = new ArrayList<>();
        List<Boolean> record = new ArrayList<>(List.of(false));
        tasks.add(() -> {
            Measured m = run(rebound, List.of("--config-dir", config.toString(), "-p", "hi"), null);
            if (!m.stdout.strip().equals(ANSWER)) {
                throw new IllegalStateException("rebound -p printed " + m.stdout + "; stderr: " + m.stderrTail());
            }
            if (record.getFirst()) {
                pWall.values().add(m.wallMs);
                pCpu.values().add(m.cpuMs);
                pRss.values().add(m.rssMiB);
            }
        });
        tasks.add(() -> {
            Measured m = run(rebound, List.of("--config-dir", config.toString(), "--mode", "rpc"), line -> {
                if (!line.startsWith("{")) {
                    return false;
                }
                JsonNode frame = BenchTable.JSON.readTree(line);
                return frame.path("type").asText().equals("ready");
            });
            if (record.getFirst()) {
                rpcReady.values().add(m.lineMs);
            }
        });
        if (helloSame != null) {
            tasks.add(() -> hello(helloSame, same, record.getFirst()));
            tasks.add(() -> hello(helloAsRebound, List.of("-p", "hi"), asPrint, record.getFirst()));
            tasks.add(() -> hello(helloAsRebound, List.of("--mode", "rpc"), asRpc, record.getFirst()));
        }
        tasks.add(() -> hello(helloJdk, jdk, record.getFirst()));

        for (int round = 0; round <= RUNS; round++) {
            record.set(0, round > 0);
            for (int k = 0; k < tasks.size(); k++) {
                tasks.get((k + round) % tasks.size()).run();
            }
        }

        // The plain baseline: the same-runtime hello world unless the full JDK's is faster (CPU and memory are shown
        // against it).
        boolean jdkFaster = helloSame == null || jdk[0].median() < same[0].median();
        Series[] base = jdkFaster ? jdk : same;
        String group = "start-up";
        List<Row> rows = new ArrayList<>();
        Series[] other = helloSame == null ? null : jdkFaster ? same : jdk;
        // The wall-time targets are checked against the fastest hello world of all, the one given the launcher's own
        // options included: they speed up any JVM, so the strictest comparison is the one that counts.
        rows.add(againstFastest(
                pWall, group, 6.0, base[0], other == null ? null : other[0], helloSame == null ? null : asPrint[0]));
        rows.add(pCpu.against(group, base[1], null, otherRatio(pCpu, other, 1)));
        rows.add(pRss.atMost(group, 100, base[2], null));
        rows.add(againstFastest(
                rpcReady, group, 3.0, base[3], other == null ? null : other[3], helloSame == null ? null : asRpc[3]));
        if (helloSame != null) {
            rows.add(same[0].row(group, "baseline"));
            rows.add(same[1].row(group, "baseline"));
            rows.add(same[2].row(group, "baseline"));
            rows.add(asPrint[0].row(group, "baseline"));
            rows.add(asRpc[3].row(group, "baseline"));
        }
        rows.add(jdk[0].row(group, "baseline"));
        rows.add(jdk[1].row(group, "baseline"));
        rows.add(jdk[2].row(group, "baseline"));
        for (Series s : List.of(pWall, pCpu, pRss, rpcReady)) {
            samples.put(s.name(), s.values());
        }
        for (Series s : Stream.concat(
                        Stream.of(jdk),
                        helloSame == null
                                ? Stream.empty()
                                : Stream.of(same, asPrint, asRpc).flatMap(Stream::of))
                .toList()) {
            samples.put(s.name(), s.values());
        }
        return rows;
    }

    /** The ratio against another baseline, for a row's note (the CPU row's, which has no target). */
    private static String otherRatio(Series figure, Series[] other, int index) {
        if (other == null) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "%.2f × %s (%.0f ms)",
                figure.median() / other[index].median(),
                other[index].name(),
                other[index].median());
    }

    /** The baseline with the lowest median (nulls skipped): a target is checked against the strictest one. */
    private static Series fastest(Series... baselines) {
        return Stream.of(baselines)
                .filter(java.util.Objects::nonNull)
                .min(java.util.Comparator.comparingDouble(Series::median))
                .orElseThrow();
    }

    /** The figure's row against the fastest of its baselines (nulls skipped), its ratios to the others in the note. */
    private static Row againstFastest(Series figure, String group, double maxRatio, Series... baselines) {
        Series base = fastest(baselines);
        return figure.against(group, base, maxRatio, ratiosBesides(figure, base, baselines));
    }

    /** The figure's ratio against each baseline other than the one its target is checked against. */
    private static String ratiosBesides(Series figure, Series chosen, Series... baselines) {
        return notes(Stream.of(baselines)
                .filter(b -> b != null && b != chosen)
                .map(b -> String.format(
                        Locale.ROOT, "%.2f × %s (%.0f ms)", figure.median() / b.median(), b.name(), b.median()))
                .toArray(String[]::new));
    }

    /** The notes that are there, joined. */
    private static String notes(String... notes) {
        String joined = Stream.of(notes).filter(n -> n != null).collect(java.util.stream.Collectors.joining("; "));
        return joined.isEmpty() ? null : joined;
    }

    /** {start → exit, CPU, peak RSS, start → its line}. */
    private static Series[] helloSeries(String name) {
        return new Series[] {
            new Series(name + ": start → exit", "ms", new ArrayList<>()),
            new Series(name + ": CPU time (user + sys)", "ms", new ArrayList<>()),
            new Series(name + ": peak RSS", "MiB", new ArrayList<>()),
            new Series(name + ": start → its line", "ms", new ArrayList<>())
        };
    }

    private void hello(List<String> command, Series[] series, boolean record) throws Exception {
        hello(command, List.of(), series, record);
    }

    private void hello(List<String> command, List<String> args, Series[] series, boolean record) throws Exception {
        Measured m = run(command, args, line -> line.equals("hello"));
        if (record) {
            series[0].values().add(m.wallMs);
            series[1].values().add(m.cpuMs);
            series[2].values().add(m.rssMiB);
            series[3].values().add(m.lineMs);
        }
    }

    /**
     * The packaged window against a minimal JavaFX window, both started by the app-image's launcher binary on its
     * runtime through {@link LeanFirstFrameProbe}, and against the minimal window given the app's own JVM options (the
     * launcher's huge pages speed up any JVM), the target checked against the faster of the two; the order rotated
     * each round after one warm-up round.
     */
    private List<Row> desktop(Path probeImage, Map<String, Object> samples) throws Exception {
        Path config = dir.resolve("desktop-config");
        seedSavedChats(probeImage, config);
        // --ready: the probe also waits for the chat's composer and the chat list's rows, so that a first frame
        // showing only a spinner, or a chat list still empty, cannot pass for the window being open.
        List<String> rebound = List.of(
                probeImage.resolve("bin/rebound-firstframe").toString(),
                "--ready=#composer",
                "--ready=.session-row",
                "dev.rebound.app.Main",
                "--config-dir",
                config.toString());
        List<String> minimal =
                List.of(probeImage.resolve("bin/minimal-firstframe").toString(), MinimalWindow.class.getName());
        List<String> minimalAsRebound =
                List.of(probeImage.resolve("bin/minimal-as-rebound").toString(), MinimalWindow.class.getName());
        Frames r = new Frames(
                new Series("Rebound window (packaged launcher): start → first frame", "ms", new ArrayList<>()),
                new Series("Rebound window (packaged launcher): CPU until first frame", "ms", new ArrayList<>()),
                new Series(
                        "Rebound window (packaged launcher): start → first frame with the chat and the chat list (composer and rows shown)",
                        "ms",
                        new ArrayList<>()));
        Frames m = new Frames(
                new Series(
                        "minimal JavaFX window, same launcher and runtime: start → first frame",
                        "ms",
                        new ArrayList<>()),
                new Series(
                        "minimal JavaFX window, same launcher and runtime: CPU until first frame",
                        "ms",
                        new ArrayList<>()),
                null);
        Frames a = new Frames(
                new Series(
                        "minimal JavaFX window, Rebound's launcher and JVM options for the window (no AOT cache): "
                                + "start → first frame",
                        "ms",
                        new ArrayList<>()),
                new Series(
                        "minimal JavaFX window, Rebound's launcher and JVM options for the window (no AOT cache): "
                                + "CPU until first frame",
                        "ms",
                        new ArrayList<>()),
                null);
        List<Map.Entry<List<String>, Frames>> windows =
                List.of(Map.entry(rebound, r), Map.entry(minimal, m), Map.entry(minimalAsRebound, a));
        for (int round = 0; round <= RUNS; round++) {
            boolean record = round > 0;
            for (int i = 0; i < windows.size(); i++) {
                Map.Entry<List<String>, Frames> w = windows.get((round + i) % windows.size());
                firstFrame(w.getKey(), w.getValue(), record);
            }
        }
        for (Series s : List.of(r.wall(), r.cpu(), r.ready(), m.wall(), m.cpu(), a.wall(), a.cpu())) {
            samples.put(s.name(), s.values());
        }
        String group = "desktop first frame";
        // Checked against the faster minimal window, the one given the launcher's options included (as for -p and RPC).
        Series base = fastest(m.wall(), a.wall());
        return List.of(
                // The verdict is the chat frame's: a first frame could show a spinner (docs/startup.md).
                r.wall().against(group, base, null, "display " + System.getenv("DISPLAY")),
                r.ready()
                        .against(
                                group,
                                base,
                                1.3,
                                notes(
                                        "the chat ready to type into, the chat list filled; the minimal window's "
                                                + "first frame",
                                        ratiosBesides(r.ready(), base, m.wall(), a.wall()))),
                r.cpu().against(group, m.cpu(), null, "from /proc/self/stat, 10 ms ticks"),
                m.wall().row(group, "baseline"),
                m.cpu().row(group, "baseline"),
                a.wall().row(group, "baseline"));
    }

    /**
     * A returning user's config directory: {@value #SAVED_CHATS} saved chats, each a question and the built-in
     * simulator's reply, made by the app itself ({@code bin/rebound -p}), so the window's sidebar has that many rows
     * at every start. The window opens on a new chat beside them (or on the empty one the previous start left,
     * which it reuses): sixteen rows in all.
     */
    private void seedSavedChats(Path probeImage, Path config) throws Exception {
        List<String> rebound = List.of(probeImage.resolve("bin/rebound").toString());
        for (int i = 1; i <= SAVED_CHATS; i++) {
            run(rebound, List.of("--config-dir", config.toString(), "-p", "Saved question number " + i + "?"), null);
        }
    }

    /** A window's figures: wall time and CPU to its first frame, and wall time to its ready frame (null: not awaited). */
    private record Frames(Series wall, Series cpu, Series ready) {}

    private void firstFrame(List<String> command, Frames frames, boolean record) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectError(work.resolve("firstframe.stderr").toFile());
        environment(pb);
        long start = System.nanoTime();
        Process process = pb.start();
        // A window whose chat never shows would keep the probe waiting: the deadline ends it, and the read below.
        CompletableFuture.delayedExecutor(TIMEOUT_SECONDS, TimeUnit.SECONDS).execute(process::destroyForcibly);
        double firstMs = Double.NaN;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                double ms = (System.nanoTime() - start) / 1e6;
                if (line.startsWith("first-frame ") && Double.isNaN(firstMs)) {
                    firstMs = ms;
                    if (record) {
                        frames.wall().values().add(ms);
                        frames.cpu().values().add(Double.parseDouble(line.substring("first-frame ".length())));
                    }
                    if (frames.ready() == null) {
                        return;
                    }
                } else if (line.startsWith("ready-frame ") && frames.ready() != null && !Double.isNaN(firstMs)) {
                    if (record) {
                        frames.ready().values().add(ms);
                    }
                    return;
                }
            }
        } finally {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        throw new IllegalStateException(
                command + (Double.isNaN(firstMs) ? " showed no window" : " never showed its chat") + "; stderr: "
                        + tail(work.resolve("firstframe.stderr")));
    }

    /** One process run through GNU time. */
    private record Measured(double wallMs, double lineMs, double cpuMs, double rssMiB, String stdout, Path stderr) {
        String stderrTail() throws IOException {
            return tail(stderr);
        }
    }

    private interface LineMatch {
        boolean test(String line) throws Exception;
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /**
     * Starts {@code command + args} under GNU time; if {@code awaited} is given, times start → the first stdout line
     * it matches and then closes stdin (RPC mode ends at end of input); always waits for the exit, which must be 0.
     */
    private Measured run(List<String> command, List<String> args, LineMatch awaited) throws Exception {
        Path timeFile = work.resolve("time.txt");
        Path stderr = work.resolve("run.stderr");
        List<String> full =
                new ArrayList<>(List.of(GNU_TIME.toString(), "-f", "%e %U %S %M", "-o", timeFile.toString()));
        full.addAll(command);
        full.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(full).redirectError(stderr.toFile());
        environment(pb);
        long start = System.nanoTime();
        Process process = pb.start();
        OutputStream stdin = process.getOutputStream();
        if (awaited == null) {
            stdin.close();
        }
        BlockingQueue<Object> lines = new LinkedBlockingQueue<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(new Line(line, System.nanoTime()));
                }
            } catch (IOException ignored) {
                // the process ended
            }
            lines.add(Boolean.FALSE);
        });
        StringBuilder stdout = new StringBuilder();
        double lineMs = Double.NaN;
        try {
            while (true) {
                Object next = lines.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (next == null) {
                    throw new IllegalStateException(full + " timed out; stderr: " + tail(stderr));
                }
                if (!(next instanceof Line line)) {
                    break;
                }
                stdout.append(line.text()).append('\n');
                if (awaited != null && Double.isNaN(lineMs) && awaited.test(line.text())) {
                    lineMs = (line.nanos() - start) / 1e6;
                    stdin.close();
                }
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException(full + " did not exit");
            }
        } finally {
            process.destroyForcibly();
        }
        double wallMs = (System.nanoTime() - start) / 1e6;
        reader.join();
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    full + " exited " + process.exitValue() + "; stderr: " + tail(stderr) + "; stdout: " + stdout);
        }
        if (awaited != null && Double.isNaN(lineMs)) {
            throw new IllegalStateException(full + " never printed the awaited line; stdout: " + stdout);
        }
        // GNU time's last line (it writes "Command exited with non-zero status" before it when the exit is not 0).
        List<String> timeLines = Files.readAllLines(timeFile);
        String[] t = timeLines.getLast().trim().split(" ");
        double cpuMs = (Double.parseDouble(t[1]) + Double.parseDouble(t[2])) * 1000;
        double rssMiB = Long.parseLong(t[3]) / 1024.0;
        return new Measured(wallMs, lineMs, cpuMs, rssMiB, stdout.toString(), stderr);
    }

    private record Line(String text, long nanos) {}

    /** Nothing the developer's shell set may change how the JVMs start. */
    private static void environment(ProcessBuilder pb) {
        for (String name : List.of("REBOUND_CONFIG_DIR", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS")) {
            pb.environment().remove(name);
        }
    }

    /**
     * A copy of the app-image (files hard-linked where possible, {@code bin/} copied) with launchers beside
     * {@code bin/rebound} that start other main classes the same way — the launcher's own lines up to its
     * {@code exec} of the image's runtime, then another command: {@code bin/hello} the hello-world (no JVM option),
     * {@code bin/rebound-firstframe} {@link LeanFirstFrameProbe} with the launcher's JVM options (its AOT cache
     * among them) and its class path with the probe's jar appended, which the cache allows; the probe is given
     * Rebound's main class to run; {@code bin/minimal-firstframe} the probe with the same
     * {@code --enable-native-access} option as the app, given {@link MinimalWindow} to run; and {@code
     * bin/hello-as-rebound} and {@code bin/minimal-as-rebound}: {@code bin/rebound} itself without its AOT cache, running
     * the hello world or the probe, so with every JVM option the launcher gives the app for the same arguments.
     */
    private Path probeImage(Path image, Path helloJar) throws IOException {
        Path copy = work.resolve("image");
        try (Stream<Path> files = Files.walk(image)) {
            for (Path from : files.toList()) {
                Path to = copy.resolve(image.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else if (from.startsWith(image.resolve("bin"))) {
                    Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
                } else {
                    try {
                        Files.createLink(to, from);
                    } catch (IOException | UnsupportedOperationException e) {
                        Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        }
        Path app = copy.resolve("lib/app");
        Files.copy(helloJar, app.resolve("hello.jar"));
        jar(app.resolve("bench-probe.jar"), null, List.of("LeanFirstFrameProbe", "MinimalWindow"));
        String launcher = Files.readString(copy.resolve("bin/rebound"));
        String exec = "exec \"$image/lib/runtime/bin/java\" \\\n";
        String mainCall = "\" " + "dev.rebound.app.Main \"$@\"";
        if (!launcher.contains(exec) || !launcher.contains(mainCall)) {
            throw new IllegalStateException("bin/rebound is not the launcher script package.sh writes: " + launcher);
        }
        String prologue = launcher.substring(0, launcher.indexOf(exec) + exec.length());
        String probe = LeanFirstFrameProbe.class.getName();
        writeLauncher(
                copy.resolve("bin/hello"),
                prologue + "  -cp \"$APPDIR/hello.jar\" " + HelloWorld.class.getName() + " \"$@\"\n");
        // The hello world started exactly as bin/rebound starts Rebound, the app's AOT cache aside: the same script,
        // so the same JVM options for the same arguments (-p's JIT and GC choice among them).
        String aotOption = "  \"-XX:AOTCache=$APPDIR/$cache\" \\\n";
        if (!launcher.contains(aotOption)) {
            throw new IllegalStateException("bin/rebound has no AOT cache option line: " + launcher);
        }
        String helloAsRebound = launcher.replace(aotOption, "")
                .replaceAll(
                        "(?m)^  -cp \"[^\"]*\" dev\\.rebound\\.app\\.Main ",
                        "  -cp \"\\$APPDIR/hello.jar\" " + HelloWorld.class.getName() + " ");
        if (!helloAsRebound.contains(HelloWorld.class.getName()) || helloAsRebound.contains("dev.rebound.app.Main")) {
            // Else it would start Rebound itself, on the user's own config directory.
            throw new IllegalStateException(
                    "bin/rebound's class path line is not as package.sh writes it: " + launcher);
        }
        writeLauncher(copy.resolve("bin/hello-as-rebound"), helloAsRebound);
        writeLauncher(
                copy.resolve("bin/minimal-firstframe"),
                prologue + "  --enable-native-access=javafx.graphics -cp \"$APPDIR/bench-probe.jar\" " + probe
                        + " \"$@\"\n");
        writeLauncher(
                copy.resolve("bin/rebound-firstframe"),
                launcher.replace(mainCall, ":$APPDIR/bench-probe.jar\" " + probe + " \"$@\""));
        // The minimal window started exactly as bin/rebound starts the window, its AOT cache aside: the same script,
        // so the same JVM options (the heap's huge pages among them).
        String minimalAsRebound = launcher.replace(aotOption, "")
                .replaceAll(
                        "(?m)^  -cp \"[^\"]*\" dev\\.rebound\\.app\\.Main ",
                        "  -cp \"\\$APPDIR/bench-probe.jar\" " + probe + " ");
        if (!minimalAsRebound.contains(probe) || minimalAsRebound.contains("dev.rebound.app.Main")) {
            throw new IllegalStateException(
                    "bin/rebound's class path line is not as package.sh writes it: " + launcher);
        }
        writeLauncher(copy.resolve("bin/minimal-as-rebound"), minimalAsRebound);
        return copy;
    }

    private static void writeLauncher(Path file, String text) throws IOException {
        Files.writeString(file, text);
        file.toFile().setExecutable(true);
    }

    /**
     * A jar of the named classes of this package (and their nested classes) from the test classes; with
     * {@code main}, that class is its Main-Class.
     */
    private static Path jar(Path out, Class<?> main, List<String> simpleNames) throws IOException {
        Path classes = Path.of("target", "test-classes", "dev", "rebound", "bench");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (main != null) {
            manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, main.getName());
        }
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(out), manifest);
                Stream<Path> files = Files.list(classes)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                boolean wanted =
                        simpleNames.stream().anyMatch(n -> name.equals(n + ".class") || name.startsWith(n + "$"));
                if (wanted) {
                    jar.putNextEntry(new JarEntry("dev/rebound/bench/" + name));
                    Files.copy(file, jar);
                    jar.closeEntry();
                }
            }
        }
        return out;
    }

    private static String tail(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
