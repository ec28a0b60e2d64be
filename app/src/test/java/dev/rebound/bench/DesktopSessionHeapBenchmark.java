package dev.rebound.bench;

import static dev.rebound.bench.FxBench.onFx;
import static dev.rebound.bench.FxBench.waitFor;

import dev.rebound.app.DesktopHarness;
import dev.rebound.ui.DesktopContext;
import dev.rebound.ui.TestWindows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Opens a realistic 10,000-message chat ({@link BenchSessionWriter}) in the real window, as {@code --session} does,
 * and measures the time until its last row is painted and the used heap after GC with it open, against the same
 * window with a new, empty chat; a class histogram of each says what the difference is made of. A harness, not a test: run on demand (docs/benchmarks.md, "Desktop"). Figures go to
 * stderr and {@code app/target/benchmarks/desktop-session-heap.txt}.
 */
class DesktopSessionHeapBenchmark {
    private static final int MESSAGES = Integer.getInteger("bench.messages", 10_000);
    private static final int OPENS = 3;

    @TempDir
    Path configDir;

    private final FxRobot robot = new FxRobot();

    @Test
    void measure() throws Exception {
        Path file = configDir.resolve("sessions").resolve("bench.jsonl");
        Files.createDirectories(file.getParent());
        BenchSessionWriter.Counts counts = new BenchSessionWriter().write(file, MESSAGES);
        List<String> report = new ArrayList<>();
        // Nothing is sent: the provider's address is never called.
        try (DesktopHarness harness = DesktopHarness.start(configDir, "http://127.0.0.1:9/v1", "{}")) {
            FxToolkit.registerPrimaryStage();
            report.add(String.format(
                    Locale.ROOT,
                    "platform %s; session of %,d messages, %,d entries, file %.1f MiB",
                    FxBench.platform(),
                    counts.messages,
                    counts.entries,
                    Files.size(file) / 1048576.0));
            Stage empty = open(harness.context(null));
            int emptyNodes = onFx(() -> nodes(empty.getScene().getRoot()));
            long baseline = HeapMeter.usedAfterGc();
            String baselineHistogram = HeapMeter.histogram(10);
            onFx(() -> {
                empty.hide();
                return null;
            });
            report.add(String.format(
                    Locale.ROOT,
                    "window with a new chat: %,d nodes in its scene graph; used heap "
                            + "after GC %.1f MiB; live objects (class histogram, top 8):%n%s",
                    emptyNodes,
                    baseline / 1048576.0,
                    baselineHistogram));
            for (int i = 0; i < OPENS; i++) {
                long start = System.nanoTime();
                Stage stage = open(harness.context(file));
                long nanos = System.nanoTime() - start;
                int rows = onFx(() -> chatList().getItems().size());
                int nodes = onFx(() -> nodes(stage.getScene().getRoot()));
                int listNodes = onFx(() -> nodes(chatList()));
                long heap = HeapMeter.usedAfterGc();
                report.add(String.format(
                        Locale.ROOT,
                        "open %d: %,d rows, last row painted after %.0f ms; %,d nodes in "
                                + "the window's scene graph, %,d of them in the chat list; used heap "
                                + "after GC %.1f MiB = %.1f MiB more than with a new chat (%.2f x the file size)",
                        i + 1,
                        rows,
                        nanos / 1e6,
                        nodes,
                        listNodes,
                        heap / 1048576.0,
                        (heap - baseline) / 1048576.0,
                        (double) (heap - baseline) / Files.size(file)));
                if (i == OPENS - 1) {
                    report.add(
                            "live objects with the chat open (class histogram, top 15):\n" + HeapMeter.histogram(17));
                }
                onFx(() -> {
                    stage.hide();
                    return null;
                });
            }
        }
        FxBench.report("desktop-session-heap.txt", report);
    }

    /** Shows the window and waits until its chat's last row is painted. */
    private Stage open(DesktopContext context) throws Exception {
        Stage stage = FxToolkit.setupFixture(() -> {
            Stage s = new Stage();
            TestWindows.show(s, context);
            return s;
        });
        boolean resumed = context.resume() != null;
        waitFor(
                60,
                () -> robot.lookup("#composer").tryQuery().isPresent()
                        && (resumed ? lastRowPainted() : chatList().getItems().isEmpty()));
        return stage;
    }

    private boolean lastRowPainted() {
        ListView<?> list = chatList();
        int last = list.getItems().size() - 1;
        return last >= 0
                && robot.lookup(".message-cell").queryAll().stream()
                        .anyMatch(n -> n instanceof ListCell<?> cell
                                && cell.getIndex() == last
                                && cell.getItem() != null
                                && cell.isVisible()
                                && cell.getHeight() > 0);
    }

    /** How many nodes the scene graph under {@code node} has, itself included. */
    private static int nodes(javafx.scene.Node node) {
        int count = 1;
        if (node instanceof javafx.scene.Parent parent) {
            for (javafx.scene.Node child : parent.getChildrenUnmodifiable()) {
                count += nodes(child);
            }
        }
        return count;
    }

    private ListView<?> chatList() {
        return robot.lookup(".chat-list").queryAs(ListView.class);
    }
}
