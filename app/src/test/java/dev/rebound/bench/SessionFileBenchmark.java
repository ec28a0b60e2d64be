package dev.rebound.bench;

import dev.rebound.history.FolderTrash;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.SessionCatalogue;
import dev.rebound.history.SessionJournal;
import dev.rebound.history.SessionLoader;
import dev.rebound.transcript.UserMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures the session files on a realistic 10,000-message session: the time to open it (cold, then the median of
 * several loads after warm-up), the heap the loaded session retains against the file's size, the catalogue's time to
 * summarise it, and the cost of one append with its fsync (median and p99 over 2,000 appends). A harness, not a test: it
 * asserts nothing about time and is run on demand:
 * {@code ./mvnw -pl plugin-api,app test -Dtest=SessionFileBenchmark -Dsurefire.failIfNoSpecifiedTests=false}. Figures go
 * to stderr and {@code app/target/benchmarks/session-file.txt}.
 */
class SessionFileBenchmark {
    private static final int MESSAGES = Integer.getInteger("bench.messages", 10_000);
    private static final int LOADS = Integer.getInteger("bench.loads", 15);
    private static final int WARM_UP_LOADS = 5;
    private static final int APPENDS = Integer.getInteger("bench.appends", 2_000);
    private static final long T0 = BenchSessionWriter.T0;

    private final BenchSessionWriter writer = new BenchSessionWriter();

    @TempDir
    Path dir;

    @Test
    void measure() throws Exception {
        Path sessions = dir.resolve("sessions");
        Files.createDirectories(sessions);
        Path file = sessions.resolve("bench.jsonl");
        BenchSessionWriter.Counts counts = writer.write(file, MESSAGES);
        long fileSize = Files.size(file);
        List<String> report = new ArrayList<>();
        report.add(String.format(
                Locale.ROOT,
                "session: %,d messages (%,d user, %,d assistant of which %,d failed "
                        + "attempts marked retried), %,d entries in all, file %.1f MiB",
                counts.messages,
                counts.user,
                counts.assistant,
                counts.failed,
                counts.entries,
                fileSize / 1048576.0));

        SessionLoader loader = new SessionLoader();
        long coldStart = System.nanoTime();
        LoadedSession first = loader.load(file);
        long coldNanos = System.nanoTime() - coldStart;
        check(first, counts);
        for (int i = 0; i < WARM_UP_LOADS; i++) {
            check(loader.load(file), counts);
        }
        List<Long> loadNanos = new ArrayList<>();
        for (int i = 0; i < LOADS; i++) {
            long start = System.nanoTime();
            LoadedSession loaded = loader.load(file);
            loadNanos.add(System.nanoTime() - start);
            check(loaded, counts);
        }
        Collections.sort(loadNanos);
        report.add(String.format(
                Locale.ROOT,
                "open (SessionLoader.load): first load in this JVM %.0f ms; after %d "
                        + "warm-up loads, %d loads: median %.0f ms, min %.0f ms, max %.0f ms",
                coldNanos / 1e6,
                WARM_UP_LOADS,
                LOADS,
                percentile(loadNanos, 50) / 1e6,
                loadNanos.getFirst() / 1e6,
                loadNanos.getLast() / 1e6));

        first = null;
        long retained = retainedHeap(loader, file);
        report.add(String.format(
                Locale.ROOT,
                "heap retained by the loaded session: %.1f MiB = %.2f x the file size "
                        + "(used heap after full GCs, with the session held, minus before)",
                retained / 1048576.0,
                (double) retained / fileSize));

        SessionCatalogue catalogue =
                new SessionCatalogue(sessions, new FolderTrash(dir.resolve("trash")), Clock.systemUTC());
        List<Long> listNanos = new ArrayList<>();
        for (int i = 0; i < LOADS + WARM_UP_LOADS; i++) {
            long start = System.nanoTime();
            String title = catalogue.list().getFirst().title();
            if (i >= WARM_UP_LOADS) {
                listNanos.add(System.nanoTime() - start);
            }
            if (!"Benchmark session".equals(title)) {
                throw new IllegalStateException("unexpected title " + title);
            }
        }
        Collections.sort(listNanos);
        report.add(String.format(
                Locale.ROOT,
                "catalogue list() of this one session (title entry near the start, so "
                        + "the title search reads the whole file backwards): median %.1f ms, max %.1f ms",
                percentile(listNanos, 50) / 1e6,
                listNanos.getLast() / 1e6));

        report.add(appendCost(file));
        Path out = Path.of("target", "benchmarks", "session-file.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
        report.forEach(System.err::println);
    }

    /** Appends to the big session with the real journal, each append forced to disk. */
    private String appendCost(Path file) throws Exception {
        List<JournalEntry> entries = new ArrayList<>();
        for (int i = 0; i < APPENDS; i++) {
            String id = "append-" + i;
            entries.add(
                    i % 2 == 0
                            ? MessageEntry.of(new UserMessage(id, writer.words(20, 60), T0 + i))
                            : MessageEntry.of(writer.reply(id, T0 + i)));
        }
        List<Long> nanos = new ArrayList<>();
        long bytesBefore = Files.size(file);
        try (SessionJournal journal = SessionJournal.openForAppend(file)) {
            for (JournalEntry entry : entries) {
                long start = System.nanoTime();
                journal.append(entry);
                nanos.add(System.nanoTime() - start);
            }
        }
        long averageLine = (Files.size(file) - bytesBefore) / APPENDS;
        Collections.sort(nanos);
        return String.format(
                Locale.ROOT,
                "append with fsync (SessionJournal.append, alternating user prompts and "
                        + "~2 KB replies, %,d bytes per line on average), %,d appends: median %.2f ms, p90 %.2f ms, "
                        + "p99 %.2f ms, max %.2f ms",
                averageLine,
                APPENDS,
                percentile(nanos, 50) / 1e6,
                percentile(nanos, 90) / 1e6,
                percentile(nanos, 99) / 1e6,
                nanos.getLast() / 1e6);
    }

    private static long retainedHeap(SessionLoader loader, Path file) throws Exception {
        long before = HeapMeter.usedAfterGc();
        LoadedSession held = loader.load(file);
        long after = HeapMeter.usedAfterGc();
        if (held.entries().isEmpty()) {
            throw new IllegalStateException("nothing loaded");
        }
        return after - before;
    }

    private static void check(LoadedSession loaded, BenchSessionWriter.Counts counts) {
        if (loaded.entries().size() != counts.entries || !loaded.problems().isEmpty()) {
            throw new IllegalStateException("loaded " + loaded.entries().size() + " entries of " + counts.entries
                    + " with problems " + loaded.problems());
        }
    }

    private static long percentile(List<Long> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
