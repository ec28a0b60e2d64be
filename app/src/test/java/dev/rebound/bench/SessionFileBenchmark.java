package dev.rebound.bench;

import dev.rebound.api.AssistantMessage;
import dev.rebound.api.ContentBlock;
import dev.rebound.api.ErrorKind;
import dev.rebound.api.FailureKind;
import dev.rebound.api.ModelRef;
import dev.rebound.api.ProviderFailure;
import dev.rebound.api.RetryAttempt;
import dev.rebound.api.RetryChainEnd;
import dev.rebound.api.RetryEndReason;
import dev.rebound.api.StopReason;
import dev.rebound.api.Usage;
import dev.rebound.api.UserMessage;
import dev.rebound.history.FolderTrash;
import dev.rebound.history.JournalCodec;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.NoticeEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.history.SessionCatalogue;
import dev.rebound.history.SessionHeader;
import dev.rebound.history.SessionJournal;
import dev.rebound.history.SessionLoader;
import dev.rebound.history.TitleEntry;
import dev.rebound.json.WireJson;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
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
    private static final long T0 = 1_796_121_000_000L;
    private static final ModelRef MAIN = new ModelRef("openai", "gpt-4.1-mini");
    private static final ModelRef FALLBACK = new ModelRef("ollama", "llama3.2");
    private static final String[] WORDS = ("the a session file line entry crash retry model provider fallback append "
            + "journal JSON stream token context window usage limit overload request response header title user "
            + "assistant message failure recover resume durable disk power cut kill write read parse").split(" ");

    private final Random random = new Random(42);

    @TempDir
    Path dir;

    @Test
    void measure() throws Exception {
        Path sessions = dir.resolve("sessions");
        Files.createDirectories(sessions);
        Path file = sessions.resolve("bench.jsonl");
        Counts counts = writeSession(file);
        long fileSize = Files.size(file);
        List<String> report = new ArrayList<>();
        report.add(String.format(Locale.ROOT, "session: %,d messages (%,d user, %,d assistant of which %,d failed "
                        + "attempts marked retried), %,d entries in all, file %.1f MiB",
                counts.messages, counts.user, counts.assistant, counts.failed, counts.entries, fileSize / 1048576.0));

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
        report.add(String.format(Locale.ROOT, "open (SessionLoader.load): first load in this JVM %.0f ms; after %d "
                        + "warm-up loads, %d loads: median %.0f ms, min %.0f ms, max %.0f ms",
                coldNanos / 1e6, WARM_UP_LOADS, LOADS, percentile(loadNanos, 50) / 1e6, loadNanos.getFirst() / 1e6,
                loadNanos.getLast() / 1e6));

        first = null;
        long retained = retainedHeap(loader, file);
        report.add(String.format(Locale.ROOT, "heap retained by the loaded session: %.1f MiB = %.2f x the file size "
                + "(used heap after full GCs, with the session held, minus before)", retained / 1048576.0,
                (double) retained / fileSize));

        SessionCatalogue catalogue = new SessionCatalogue(sessions, new FolderTrash(dir.resolve("trash")),
                Clock.systemUTC());
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
        report.add(String.format(Locale.ROOT, "catalogue list() of this one session (title entry near the start, so "
                        + "the title search reads the whole file backwards): median %.1f ms, max %.1f ms",
                percentile(listNanos, 50) / 1e6, listNanos.getLast() / 1e6));

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
            entries.add(i % 2 == 0 ? MessageEntry.of(new UserMessage(id, words(20, 60), T0 + i))
                    : MessageEntry.of(reply(id, T0 + i)));
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
        return String.format(Locale.ROOT, "append with fsync (SessionJournal.append, alternating user prompts and "
                        + "~2 KB replies, %,d bytes per line on average), %,d appends: median %.2f ms, p90 %.2f ms, "
                        + "p99 %.2f ms, max %.2f ms", averageLine, APPENDS, percentile(nanos, 50) / 1e6,
                percentile(nanos, 90) / 1e6, percentile(nanos, 99) / 1e6, nanos.getLast() / 1e6);
    }

    private static long retainedHeap(SessionLoader loader, Path file) throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = usedAfterGc(memory);
        LoadedSession held = loader.load(file);
        long after = usedAfterGc(memory);
        if (held.entries().isEmpty()) {
            throw new IllegalStateException("nothing loaded");
        }
        return after - before;
    }

    private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            memory.gc();
            Thread.sleep(50);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static void check(LoadedSession loaded, Counts counts) {
        if (loaded.entries().size() != counts.entries || !loaded.problems().isEmpty()) {
            throw new IllegalStateException("loaded " + loaded.entries().size() + " entries of " + counts.entries
                    + " with problems " + loaded.problems());
        }
    }

    /** Writes the session through the codec without fsync: building the file is not what is measured. */
    private Counts writeSession(Path file) throws Exception {
        JournalCodec codec = new JournalCodec(new WireJson());
        Counts counts = new Counts();
        long ts = T0;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(codec.encodeHeader(SessionHeader.of("bench", T0, null)));
            int turn = 0;
            while (counts.messages < MESSAGES) {
                ts += 1000;
                String turnId = "turn-" + turn;
                counts.add(out, codec, MessageEntry.of(new UserMessage("u" + turn, words(10, 80), ts)), true);
                if (turn == 0) {
                    counts.add(out, codec, new TitleEntry("title-0", ts, "Benchmark session"), false);
                }
                if (turn % 20 == 7 && counts.messages < MESSAGES - 1) {
                    AssistantMessage failedAttempt = failed("f" + turn, ts + 100);
                    counts.add(out, codec, MessageEntry.of(failedAttempt), true);
                    counts.failed++;
                    counts.add(out, codec, new RetriedMark("r" + turn, ts + 101, failedAttempt.id(), true), false);
                    counts.add(out, codec, new RetryChainEntry("k" + turn, ts + 900, new RetryChainEnd(turnId,
                            List.of(new RetryAttempt(0, ErrorKind.TRANSIENT, 503, MAIN.selector(), "work", 800L,
                                    "503 Service Unavailable")), RetryEndReason.SUCCEEDED, null, ts + 100,
                            ts + 900)), false);
                }
                if (turn % 250 == 100) {
                    counts.add(out, codec, new ModelChangeEntry("c" + turn, ts + 200, MAIN, FALLBACK,
                            ModelChangeEntry.ROLE_FALLBACK, ModelChangeEntry.REASON_FALLBACK), false);
                    counts.add(out, codec, new NoticeEntry("n" + turn, ts + 201, "warning",
                            "openai/gpt-4.1-mini is overloaded; continuing on ollama/llama3.2"), false);
                }
                if (turn % 250 == 110) {
                    counts.add(out, codec, new ModelChangeEntry("c" + turn, ts + 200, FALLBACK, MAIN,
                            ModelChangeEntry.ROLE_FALLBACK, ModelChangeEntry.REASON_REVERT), false);
                }
                if (counts.messages < MESSAGES) {
                    counts.add(out, codec, MessageEntry.of(reply("a" + turn, ts + 999)), true);
                }
                turn++;
            }
        }
        return counts;
    }

    private AssistantMessage reply(String id, long ts) {
        return new AssistantMessage(id, List.of(new ContentBlock.Text(markdown(1024 + random.nextInt(2048)))),
                "openai", "gpt-4.1-mini", "openai-completions", "work",
                new Usage(2000 + random.nextInt(50_000), 300 + random.nextInt(700), random.nextInt(2000), 0),
                StopReason.STOP, null, null, null, ts);
    }

    private AssistantMessage failed(String id, long ts) {
        return new AssistantMessage(id, List.of(), "openai", "gpt-4.1-mini", "openai-completions", "work",
                Usage.NONE, StopReason.ERROR, "503 Service Unavailable: the server is overloaded", null,
                new ProviderFailure(FailureKind.HTTP, 503, "server_error", null,
                        Map.of("retry-after", "1", "x-request-id", "req_" + id)), ts);
    }

    /** Markdown of about that many characters: headings, paragraphs, a list, sometimes a code block. */
    private String markdown(int length) {
        StringBuilder text = new StringBuilder("## ").append(words(3, 6)).append("\n\n");
        while (text.length() < length) {
            switch (random.nextInt(4)) {
                case 0 -> text.append("- **").append(words(1, 3)).append("**: ").append(words(6, 15)).append('\n');
                case 1 -> text.append("```java\nvar x = ").append(random.nextInt(1000)).append(";\n```\n\n");
                default -> text.append(words(20, 60)).append(".\n\n");
            }
        }
        return text.toString();
    }

    private String words(int min, int max) {
        int count = min + random.nextInt(max - min + 1);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.toString();
    }

    private static long percentile(List<Long> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    /** What the generated session holds. */
    private static final class Counts {
        int messages;
        int user;
        int assistant;
        int failed;
        int entries;

        void add(OutputStream out, JournalCodec codec, JournalEntry entry, boolean message) throws Exception {
            out.write(codec.encode(entry));
            entries++;
            if (message) {
                messages++;
                if (entry instanceof MessageEntry m && m.message() instanceof UserMessage) {
                    user++;
                } else {
                    assistant++;
                }
            }
        }
    }
}
