package dev.rebound.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shape of one line of the benchmark summary ({@code bench/run}, docs/benchmarks.md, "One command"), the
 * statistics behind it, and the JSON fragments the harnesses write for {@link BenchSummary} to merge.
 */
final class BenchTable {
    static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private BenchTable() {}

    /**
     * One figure: its median over {@code runs}, its spread (named statistics such as p25, p75, min, max), the
     * baseline it is compared with and their ratio, and the target with its verdict ({@code null}: no target).
     */
    record Row(
            String benchmark,
            String figure,
            String unit,
            int runs,
            double median,
            Map<String, Double> spread,
            String baseline,
            Double baselineMedian,
            Double ratio,
            String target,
            Boolean pass,
            String note) {}

    /** Samples of one measure, in the order taken. */
    record Series(String name, String unit, List<Double> values) {
        double[] sorted() {
            double[] s = values.stream().mapToDouble(Double::doubleValue).toArray();
            Arrays.sort(s);
            return s;
        }

        double median() {
            return quantile(sorted(), 0.5);
        }

        /** p25, p75, min, max. */
        Map<String, Double> spread() {
            double[] s = sorted();
            Map<String, Double> spread = new LinkedHashMap<>();
            spread.put("p25", quantile(s, 0.25));
            spread.put("p75", quantile(s, 0.75));
            spread.put("min", s[0]);
            spread.put("max", s[s.length - 1]);
            return spread;
        }

        /** A row with no baseline and no target (a baseline's own line, or a figure kept for reference). */
        Row row(String benchmark, String note) {
            return new Row(
                    benchmark, name, unit, values.size(), median(), spread(), null, null, null, null, null, note);
        }

        /**
         * A row compared with {@code baseline} (ratio of the medians); {@code maxRatio} is the target, or
         * {@code null} for none.
         */
        Row against(String benchmark, Series baseline, Double maxRatio, String note) {
            double ratio = median() / baseline.median();
            return new Row(
                    benchmark,
                    name,
                    unit,
                    values.size(),
                    median(),
                    spread(),
                    baseline.name(),
                    baseline.median(),
                    ratio,
                    maxRatio == null ? null : "≤ " + format(maxRatio) + " × baseline",
                    maxRatio == null ? null : ratio <= maxRatio,
                    note);
        }

        /** A row with an absolute upper bound on the median as its target. */
        Row atMost(String benchmark, double limit, Series baseline, String note) {
            return new Row(
                    benchmark,
                    name,
                    unit,
                    values.size(),
                    median(),
                    spread(),
                    baseline == null ? null : baseline.name(),
                    baseline == null ? null : baseline.median(),
                    baseline == null ? null : median() / baseline.median(),
                    "≤ " + format(limit) + " " + unit,
                    median() <= limit,
                    note);
        }
    }

    /** Linear interpolation between closest ranks, as the desktop harnesses compute quartiles. */
    static double quantile(double[] sorted, double q) {
        double position = (sorted.length - 1) * q;
        int low = (int) Math.floor(position);
        int high = (int) Math.ceil(position);
        return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
    }

    static String format(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    /** The machine's load averages (1, 5, 15 minutes), or "?" without {@code /proc/loadavg}. */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            return "?";
        }
    }

    /** Writes a harness's fragment to {@code target/benchmarks/NAME.json}, for {@link BenchSummary}. */
    static Path writeFragment(String name, Map<String, Object> fragment) throws IOException {
        Path out = Path.of("target", "benchmarks", name + ".json");
        Files.createDirectories(out.getParent());
        JSON.writeValue(out.toFile(), fragment);
        return out;
    }
}
