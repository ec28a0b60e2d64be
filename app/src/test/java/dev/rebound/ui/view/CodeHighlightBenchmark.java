package dev.rebound.ui.view;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * How long highlighting takes for a 200 KB Java file (this project's own sources, concatenated): lexing alone, and
 * lexing plus making the runs, styling and laying them out in a scene on the FX thread; and the longest single update
 * while such a block streams through {@link MarkdownView} (128 characters per update, about what one pulse brings at
 * 2,000 tokens/s), a block at the size limit and one over it. A harness, not a test: run on demand (docs/benchmarks.md,
 * "Syntax highlighting"); figures go to stderr and {@code app/target/benchmarks/code-highlight.txt}.
 */
class CodeHighlightBenchmark {
    private static final int SIZE = 200 * 1024;

    private static <T> T onFx(Callable<T> call) throws Exception {
        return WaitForAsyncUtils.asyncFx(call).get();
    }

    private static String javaSource(int size) {
        StringBuilder code = new StringBuilder();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                code.append(Files.readString(file));
                if (code.length() >= size) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return code.substring(0, code.lastIndexOf("\n", size));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    @Test
    void measure() throws Exception {
        FxToolkit.registerPrimaryStage();
        String code = javaSource(SIZE);
        String capped = code.substring(0, code.lastIndexOf("\n", CodeBody.HIGHLIGHT_LIMIT));
        List<String> report = new ArrayList<>();
        report.add(String.format(
                Locale.ROOT,
                "%d characters, %d lines of Java",
                code.length(),
                code.lines().count()));

        double[] lex = new double[15];
        int runs = 0;
        for (int i = 0; i < lex.length; i++) {
            long start = System.nanoTime();
            runs = CodeHighlighter.runs(CodeLanguage.JAVA, code).size();
            lex[i] = (System.nanoTime() - start) / 1e6;
        }
        report.add(String.format(
                Locale.ROOT,
                "lexing alone: first %.1f ms, median of the last 10 %.1f ms; %d runs",
                lex[0],
                median(Arrays.copyOfRange(lex, 5, 15)),
                runs));

        Stage stage = onFx(() -> {
            ChatWindow.applyTheme(false);
            Stage s = new Stage();
            StackPane root = new StackPane();
            root.getStyleClass().add("markdown");
            Scene scene = new Scene(root, 900, 700);
            scene.getStylesheets()
                    .add(ChatWindow.class.getResource("rebound.css").toExternalForm());
            s.setScene(scene);
            s.show();
            return s;
        });
        StackPane root = (StackPane) stage.getScene().getRoot();
        report.add(
                view(root, "200 KB highlighted (no limit)", code, Optional.of(CodeLanguage.JAVA), Integer.MAX_VALUE));
        report.add(
                view(root, "20 KB highlighted (the limit)", capped, Optional.of(CodeLanguage.JAVA), Integer.MAX_VALUE));
        report.add(view(
                root, "200 KB plain (over the limit)", code, Optional.of(CodeLanguage.JAVA), CodeBody.HIGHLIGHT_LIMIT));
        report.add(view(root, "200 KB plain (before highlighting)", code, Optional.empty(), 0));
        report.add(stream(root, "```java\n" + capped + "\n```\n", "streamed 20 KB block"));
        report.add(stream(root, "```java\n" + code + "\n```\n", "streamed 200 KB block (plain: over the limit)"));
        onFx(() -> {
            stage.close();
            return null;
        });
        Path out = Path.of("target/benchmarks/code-highlight.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
        report.forEach(System.err::println);
    }

    /** Median over 5 of: show the code in a new body, then CSS and layout, on the FX thread. */
    private static String view(StackPane root, String label, String code, Optional<CodeLanguage> language, int limit)
            throws Exception {
        double[] times = new double[6];
        int nodes = 0;
        double[] parts = null;
        for (int i = 0; i < times.length; i++) {
            double[] result = onFx(() -> {
                long start = System.nanoTime();
                CodeBody body = new CodeBody(language, limit);
                body.show(code);
                long shown = System.nanoTime();
                root.getChildren().setAll(body);
                root.applyCss();
                long styled = System.nanoTime();
                root.layout();
                long end = System.nanoTime();
                return new double[] {
                    (end - start) / 1e6,
                    body.runs().size(),
                    (shown - start) / 1e6,
                    (styled - shown) / 1e6,
                    (end - styled) / 1e6
                };
            });
            times[i] = result[0];
            nodes = (int) result[1];
            parts = result;
        }
        return String.format(
                Locale.ROOT,
                "%s: first %.1f ms, median of the next 5 %.1f ms (show + CSS + layout; the last: %.1f + %.1f + %.1f ms);"
                        + " %d runs",
                label,
                times[0],
                median(Arrays.copyOfRange(times, 1, 6)),
                parts[2],
                parts[3],
                parts[4],
                nodes);
    }

    /** A reply holding one code block streamed 128 characters per update, each followed by CSS and layout. */
    private static String stream(StackPane root, String reply, String label) throws Exception {
        return onFx(() -> {
            MarkdownView view = new MarkdownView(new MarkdownRenderer(url -> {}));
            root.getChildren().setAll(view);
            view.restart();
            double longest = 0;
            double total = 0;
            int updates = 0;
            for (int end = 128; end < reply.length() + 128; end += 128) {
                long start = System.nanoTime();
                view.advance(reply.substring(0, Math.min(end, reply.length())));
                root.applyCss();
                root.layout();
                double ms = (System.nanoTime() - start) / 1e6;
                longest = Math.max(longest, ms);
                total += ms;
                updates++;
            }
            long start = System.nanoTime();
            view.flush(reply);
            root.applyCss();
            root.layout();
            double flush = (System.nanoTime() - start) / 1e6;
            return String.format(
                    Locale.ROOT,
                    "%s: %d updates, total %.0f ms, longest %.1f ms, final flush %.1f ms",
                    label,
                    updates,
                    total,
                    longest,
                    flush);
        });
    }
}
