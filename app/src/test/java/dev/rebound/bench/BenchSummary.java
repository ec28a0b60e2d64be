package dev.rebound.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.bench.BenchTable.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Merges what one {@code bench/run} left in the harnesses' output folder into one table,
 * {@code summary.json} and {@code summary.md}: the JSON fragment of {@link StartupBenchmark}, and the text reports of
 * the older harnesses, {@link RetryTimingBenchmark} ({@code retry-timing.txt}) and {@link DesktopStartupBenchmark}
 * ({@code desktop-startup.txt}), read by their line formats. A report that is missing, or whose format no longer
 * matches, is listed under "missing" instead of failing the whole summary.
 *
 * <p>Arguments: the harnesses' folder, the output folder, the time the run started (ISO-8601) and the load average
 * then.
 */
public final class BenchSummary {
    private static final String NUMBER = "([-+]?[0-9.]+)";

    private BenchSummary() {}

    public static void main(String[] args) throws IOException {
        Path in = Path.of(args[0]);
        Path out = Path.of(args[1]);
        String started = args.length > 2 ? args[2] : Instant.now().toString();
        String loadStart = args.length > 3 ? args[3] : "?";
        List<Row> rows = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        Map<String, Object> details = new LinkedHashMap<>();

        Path startup = in.resolve("startup.json");
        if (Files.exists(startup)) {
            JsonNode fragment = BenchTable.JSON.readTree(startup.toFile());
            rows.addAll(BenchTable.JSON.convertValue(fragment.get("rows"), new TypeReference<List<Row>>() {}));
            Map<String, Object> d = new LinkedHashMap<>();
            for (String key : List.of(
                    "launcher", "reboundCommand", "helloWorldCommands", "runs", "loadAverageStart", "loadAverageEnd")) {
                d.put(key, fragment.get(key));
            }
            details.put("startup", d);
            if ("jar".equals(fragment.path("launcher").asText())) {
                missing.add("desktop first frame from the package: the start-up figures ran java -jar (no app-image,"
                        + " or --launcher jar)");
            }
        } else {
            missing.add("start-up (-p, RPC ready, packaged window): no " + startup);
        }
        retryTiming(in.resolve("retry-timing.txt"), rows, missing);
        desktopStartup(in.resolve("desktop-startup.txt"), rows, missing, details);

        Map<String, Object> machine = machine(loadStart);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("started", started);
        summary.put("finished", Instant.now().toString());
        summary.put("machine", machine);
        summary.put("rows", rows);
        summary.put("missing", missing);
        summary.put("details", details);
        Files.createDirectories(out);
        BenchTable.JSON.writeValue(out.resolve("summary.json").toFile(), summary);
        Files.writeString(out.resolve("summary.md"), markdown(started, machine, rows, missing, details));
        System.out.print(Files.readString(out.resolve("summary.md")));
    }

    private static void retryTiming(Path file, List<Row> rows, List<String> missing) throws IOException {
        if (!Files.exists(file)) {
            missing.add("cancel latency and backoff accuracy: no " + file);
            return;
        }
        String text = Files.readString(file);
        Matcher cancel = Pattern.compile("cancel latency .*?, (\\d+) runs after \\d+ warm-up: p50 " + NUMBER
                        + " ms, p90 " + NUMBER + " ms, p99 " + NUMBER + " ms, max " + NUMBER + " ms")
                .matcher(text);
        if (cancel.find()) {
            double p99 = d(cancel, 4);
            rows.add(new Row(
                    "retry timing (RPC, java -jar)",
                    "cancel latency: abort_retry written → auto_retry_end read",
                    "ms",
                    Integer.parseInt(cancel.group(1)),
                    d(cancel, 2),
                    spread("p90", d(cancel, 3), "p99", p99, "max", d(cancel, 5)),
                    null,
                    null,
                    null,
                    "p99 < 20 ms",
                    p99 < 20,
                    "one process, after 10 warm-up runs"));
        } else {
            missing.add("cancel latency: " + file + " has no line in the expected format");
        }
        Matcher backoff = Pattern.compile(
                        "backoff accuracy .*?(\\d+) chains x (\\d+) retries.*?planned (\\d+)\\.\\.(\\d+)"
                                + " ms: min " + NUMBER + " ms, p50 " + NUMBER + " ms, p90 " + NUMBER + " ms, p99 "
                                + NUMBER
                                + " ms, max " + NUMBER + " ms; within \\+20 ms: (\\d+) of (\\d+)")
                .matcher(text);
        if (backoff.find()) {
            int within = Integer.parseInt(backoff.group(10));
            int of = Integer.parseInt(backoff.group(11));
            rows.add(new Row(
                    "retry timing (RPC, java -jar)",
                    "backoff overshoot: gap between requests − announced delayMs",
                    "ms",
                    of,
                    d(backoff, 6),
                    spread("min", d(backoff, 5), "p90", d(backoff, 7), "p99", d(backoff, 8), "max", d(backoff, 9)),
                    null,
                    null,
                    null,
                    "every retry ≤ planned + 20 ms",
                    within == of,
                    within + " of " + of + " within +20 ms; planned delays " + backoff.group(3) + "–" + backoff.group(4)
                            + " ms"));
        } else {
            missing.add("backoff accuracy: " + file + " has no line in the expected format");
        }
    }

    private static void desktopStartup(Path file, List<Row> rows, List<String> missing, Map<String, Object> details)
            throws IOException {
        if (!Files.exists(file)) {
            missing.add("desktop first frame (java -cp): no " + file + " (no X display: xvfb-run missing?)");
            return;
        }
        String text = Files.readString(file);
        Optional<double[]> rebound = firstFrameLine(text, "Rebound window");
        Optional<double[]> minimal = firstFrameLine(text, "minimal window (Stage + Label)");
        Matcher runs = Pattern.compile("(\\d+) starts of each").matcher(text);
        Matcher glass = Pattern.compile("glass (.*?); ").matcher(text);
        if (rebound.isEmpty() || minimal.isEmpty() || !runs.find()) {
            missing.add("desktop first frame (java -cp): " + file + " has no lines in the expected format");
            return;
        }
        int n = Integer.parseInt(runs.group(1));
        String group = "desktop first frame (java -cp, DesktopStartupBenchmark)";
        String baseName = "minimal JavaFX window (java -cp)";
        double[] r = rebound.get();
        double[] m = minimal.get();
        double ratio = r[0] / m[0];
        rows.add(new Row(
                group,
                "Rebound window (java -cp): start → first frame",
                "ms",
                n,
                r[0],
                spread("p25", r[2], "p75", r[3], "min", r[1], "max", r[4]),
                baseName + ": start → first frame",
                m[0],
                ratio,
                "≤ 1.3 × baseline",
                ratio <= 1.3,
                glass.find() ? "glass " + glass.group(1) : null));
        rows.add(new Row(
                group,
                "Rebound window (java -cp): CPU until first frame",
                "ms",
                n,
                r[5],
                spread("p25", r[7], "p75", r[8], "min", r[6], "max", r[9]),
                baseName + ": CPU until first frame",
                m[5],
                r[5] / m[5],
                null,
                null,
                "OperatingSystemMXBean"));
        rows.add(new Row(
                group,
                baseName + ": start → first frame",
                "ms",
                n,
                m[0],
                spread("p25", m[2], "p75", m[3], "min", m[1], "max", m[4]),
                null,
                null,
                null,
                null,
                null,
                "baseline"));
        details.put("desktopStartup", Files.readAllLines(file));
    }

    /** {wall median, min, p25, p75, max, CPU median, min, p25, p75, max}. */
    private static Optional<double[]> firstFrameLine(String text, String name) {
        Matcher m = Pattern.compile(
                        Pattern.quote(name) + ": process start to first frame median (\\d+) ms \\(min (\\d+),"
                                + " p25 (\\d+), p75 (\\d+), max (\\d+)\\);.*?process CPU time until the first frame median (\\d+)"
                                + " ms \\(min (\\d+), p25 (\\d+), p75 (\\d+), max (\\d+)\\)")
                .matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        double[] v = new double[10];
        for (int i = 0; i < 10; i++) {
            v[i] = d(m, i + 1);
        }
        return Optional.of(v);
    }

    private static double d(Matcher m, int group) {
        return Double.parseDouble(m.group(group));
    }

    private static Map<String, Double> spread(Object... namesAndValues) {
        Map<String, Double> spread = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            spread.put((String) namesAndValues[i], (Double) namesAndValues[i + 1]);
        }
        return spread;
    }

    private static Map<String, Object> machine(String loadStart) throws IOException {
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cores", Runtime.getRuntime().availableProcessors());
        machine.put("cpu", procLine(Path.of("/proc/cpuinfo"), "model name").orElse("?"));
        machine.put(
                "memory",
                procLine(Path.of("/proc/meminfo"), "MemTotal")
                        .map(kb -> String.format(
                                Locale.ROOT, "%.1f GiB", Long.parseLong(kb.replace(" kB", "")) / 1048576.0))
                        .orElse("?"));
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        machine.put(
                "jdk",
                System.getProperty("java.vendor") + " " + Runtime.version() + " (" + System.getProperty("java.home")
                        + ")");
        machine.put("loadAverageStart", loadStart);
        machine.put("loadAverageEnd", BenchTable.loadAverage());
        return machine;
    }

    private static Optional<String> procLine(Path file, String key) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        return Files.readAllLines(file).stream()
                .filter(l -> l.startsWith(key))
                .map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst();
    }

    private static String markdown(
            String started,
            Map<String, Object> machine,
            List<Row> rows,
            List<String> missing,
            Map<String, Object> details) {
        StringBuilder md = new StringBuilder();
        md.append("# Benchmarks, ").append(started).append("\n\n");
        md.append(String.format(
                Locale.ROOT,
                "%s cores (%s), %s; %s; %s. Load average (1, 5, 15 min) at the start %s, at the end %s.%n%n",
                machine.get("cores"),
                machine.get("cpu"),
                machine.get("memory"),
                machine.get("os"),
                machine.get("jdk"),
                machine.get("loadAverageStart"),
                machine.get("loadAverageEnd")));
        if (details.get("startup") instanceof Map<?, ?> s) {
            md.append("Start-up launcher: `")
                    .append(
                            s.get("reboundCommand") instanceof JsonNode command
                                    ? String.join(" ", BenchTable.JSON.convertValue(command, String[].class))
                                    : "?")
                    .append("`; ")
                    .append(s.get("runs"))
                    .append(" runs of each after one warm-up, the order rotated each round. ")
                    .append(
                            s.get("launcher") instanceof JsonNode l
                                            && l.asText().equals("package")
                                    ? "Baselines are started by the same launcher binary on the same runtime, plain"
                                            + " and with the JVM options the launcher gives the app, and the full JDK's"
                                            + " `java -jar hello.jar` in every round too; each wall-time target is"
                                            + " checked against the fastest of its baselines.\n\n"
                                    : "The baseline is `java -jar hello.jar` on the same JDK.\n\n");
        }
        md.append("| benchmark | figure | runs | median | spread | baseline: median | ratio | target | result |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            md.append("| ")
                    .append(r.benchmark())
                    .append(" | ")
                    .append(r.figure())
                    .append(r.note() == null ? "" : " (" + r.note() + ")")
                    .append(" | ")
                    .append(r.runs())
                    .append(" | ")
                    .append(value(r.median(), r.unit()))
                    .append(" | ")
                    .append(spreadText(r.spread(), r.unit()))
                    .append(" | ")
                    .append(r.baseline() == null ? "" : r.baseline() + ": " + value(r.baselineMedian(), r.unit()))
                    .append(" | ")
                    .append(r.ratio() == null ? "" : String.format(Locale.ROOT, "%.2f ×", r.ratio()))
                    .append(" | ")
                    .append(r.target() == null ? "" : r.target())
                    .append(" | ")
                    .append(r.pass() == null ? "" : r.pass() ? "pass" : "**fail**")
                    .append(" |\n");
        }
        if (!missing.isEmpty()) {
            md.append("\nNot measured in this run:\n\n");
            missing.forEach(m -> md.append("- ").append(m).append('\n'));
        }
        return md.toString();
    }

    /** "p25–p75 a–b, min–max c–d", and any other statistic by its name. */
    private static String spreadText(Map<String, Double> spread, String unit) {
        Map<String, Double> rest = new LinkedHashMap<>(spread);
        List<String> parts = new ArrayList<>();
        for (String[] pair : List.of(new String[] {"p25", "p75"}, new String[] {"min", "max"})) {
            if (rest.containsKey(pair[0]) && rest.containsKey(pair[1])) {
                parts.add(pair[0] + "–" + pair[1] + " " + number(rest.remove(pair[0])) + "–"
                        + value(rest.remove(pair[1]), unit));
            }
        }
        rest.forEach((name, v) -> parts.add(name + " " + value(v, unit)));
        return String.join(", ", parts);
    }

    private static String value(double v, String unit) {
        return number(v) + " " + unit;
    }

    private static String number(double v) {
        return Math.abs(v) >= 100
                ? String.format(Locale.ROOT, "%.0f", v)
                : Math.abs(v) >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
