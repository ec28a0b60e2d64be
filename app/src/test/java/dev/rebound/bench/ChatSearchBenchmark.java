package dev.rebound.bench;

import dev.rebound.history.ChatSearch;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.SessionJournal;
import dev.rebound.history.TitleEntry;
import dev.rebound.json.WireJson;
import dev.rebound.transcript.UserMessage;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures the sidebar's search across chats on 1,000 saved chats of 20 messages each (prompts of 10–80 words, Markdown
 * replies of 1–3 KB from {@link BenchSessionWriter}, each chat with a title and a word of its own): the cold index build,
 * a refresh with nothing changed and with one chat changed, query latency (median, p95, max) for a word in every chat,
 * a word in one chat, two words and a word in none, and the heap the index holds. A harness, not a test: it asserts
 * nothing about time and is run on demand (docs/benchmarks.md, "Search across chats"). Figures go to stderr and
 * {@code app/target/benchmarks/chat-search.txt}.
 */
class ChatSearchBenchmark {
    private static final int CHATS = Integer.getInteger("bench.chats", 1_000);
    private static final int MESSAGES = Integer.getInteger("bench.messages", 20);
    private static final int QUERIES = Integer.getInteger("bench.queries", 300);
    private static final int WARM_UP = 50;
    private static final long T0 = BenchSessionWriter.T0;

    @TempDir
    Path dir;

    @Test
    void measure() throws Exception {
        Path sessions = dir.resolve("sessions");
        Files.createDirectories(sessions);
        long bytes = write(sessions);
        List<String> report = new ArrayList<>();
        report.add(String.format(
                Locale.ROOT,
                "%,d chats of %d messages (prompts of 10-80 words, Markdown replies of 1-3 KB): %.1f MiB of files",
                CHATS,
                MESSAGES,
                bytes / 1048576.0));

        long before = HeapMeter.usedAfterGc();
        ChatSearch search = new ChatSearch(sessions);
        long start = System.nanoTime();
        search.refresh();
        long cold = System.nanoTime() - start;
        ChatSearch.Size size = search.size();
        long after = HeapMeter.usedAfterGc();
        report.add(String.format(
                Locale.ROOT,
                "cold index build (first refresh in this JVM, files in the OS cache): %.0f ms; %,d chats, %,d "
                        + "messages, %,d characters indexed",
                cold / 1e6,
                size.chats(),
                size.messages(),
                size.characters()));
        report.add(String.format(
                Locale.ROOT,
                "heap held by the index: %.1f MiB (%.2f x the files; used heap after full GCs, with the index "
                        + "minus before)",
                (after - before) / 1048576.0,
                (double) (after - before) / bytes));

        List<Long> rebuilds = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long again = System.nanoTime();
            new ChatSearch(sessions).refresh();
            rebuilds.add(System.nanoTime() - again);
        }
        report.add(summary("index build again in this JVM (a new index; code warmed up)", rebuilds));
        List<Long> loads = new ArrayList<>();
        dev.rebound.history.SessionLoader loader = new dev.rebound.history.SessionLoader();
        for (int i = 0; i < 5; i++) {
            long again = System.nanoTime();
            try (var files = Files.list(sessions)) {
                for (Path file : files.toList()) {
                    loader.load(file);
                }
            }
            loads.add(System.nanoTime() - again);
        }
        report.add(summary("for comparison: SessionLoader.load of every file, one after another", loads));
        report.add(timed("refresh, nothing changed (lists and stats every file)", i -> null, search));
        Path changing = sessions.resolve("chat-0.jsonl");
        report.add(timed(
                "refresh after one chat got a new message",
                i -> {
                    try (SessionJournal journal = SessionJournal.openForAppend(changing)) {
                        journal.append(MessageEntry.of(new UserMessage("extra-" + i, "one more line " + i, T0 + i)));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return null;
                },
                search));
        report.add(query(search, "word in every chat (100 hits with snippets, of 1,000)", i -> "retry", 1_000));
        report.add(query(search, "word in one chat", i -> "marker" + (i % CHATS) + "q", 1));
        report.add(
                query(search, "two words, one chat", i -> "Project " + (i % CHATS) + " marker" + (i % CHATS) + "q", 1));
        report.add(query(search, "word in no chat (scans everything)", i -> "xylophone" + i, 0));
        Path out = Path.of("target", "benchmarks", "chat-search.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
        report.forEach(System.err::println);
        if (search.size().chats() != CHATS) {
            throw new IllegalStateException("index lost chats");
        }
    }

    /** Writes the chats through the codec without fsync: building them is not what is measured. */
    private static long write(Path sessions) throws Exception {
        BenchSessionWriter words = new BenchSessionWriter();
        dev.rebound.history.JournalCodec codec = new dev.rebound.history.JournalCodec(new WireJson());
        long total = 0;
        for (int chat = 0; chat < CHATS; chat++) {
            Path file = sessions.resolve("chat-" + chat + ".jsonl");
            long ts = T0 + chat * 100_000L;
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
                out.write(codec.encodeHeader(dev.rebound.history.SessionHeader.of("chat-" + chat, ts, null)));
                for (int m = 0; m < MESSAGES; m += 2) {
                    ts += 1000;
                    String prompt = (m == 0 ? "Project " + chat + " marker" + chat + "q " : "") + words.words(10, 80);
                    out.write(codec.encode(MessageEntry.of(new UserMessage("u" + m, prompt, ts))));
                    if (m == 0) {
                        out.write(codec.encode(new TitleEntry("t0", ts, "Project " + chat)));
                    }
                    out.write(codec.encode(MessageEntry.of(words.reply("a" + m, ts + 500))));
                }
            }
            total += Files.size(file);
        }
        return total;
    }

    private static String query(ChatSearch search, String what, IntFunction<String> queries, int expected)
            throws Exception {
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < WARM_UP + QUERIES; i++) {
            String query = queries.apply(i);
            long start = System.nanoTime();
            ChatSearch.Results results = search.search(query, 100);
            long took = System.nanoTime() - start;
            if (results.total() != expected) {
                throw new IllegalStateException(query + " found " + results.total() + ", not " + expected);
            }
            if (i >= WARM_UP) {
                nanos.add(took);
            }
        }
        return summary("query, " + what, nanos);
    }

    private static String timed(String what, IntFunction<Void> before, ChatSearch search) throws Exception {
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < 20 + 100; i++) {
            before.apply(i);
            long start = System.nanoTime();
            search.refresh();
            if (i >= 20) {
                nanos.add(System.nanoTime() - start);
            }
        }
        return summary(what, nanos);
    }

    private static String summary(String what, List<Long> nanos) {
        Collections.sort(nanos);
        return String.format(
                Locale.ROOT,
                "%s, %d runs: median %.1f ms, p95 %.1f ms, max %.1f ms",
                what,
                nanos.size(),
                percentile(nanos, 50) / 1e6,
                percentile(nanos, 95) / 1e6,
                nanos.getLast() / 1e6);
    }

    private static long percentile(List<Long> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
