package dev.rebound.bench;

import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryEndReason;
import dev.rebound.history.JournalCodec;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.NoticeEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.history.SessionHeader;
import dev.rebound.history.TitleEntry;
import dev.rebound.json.WireJson;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import dev.rebound.transcript.UserMessage;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writes a realistic long session for the benchmarks: prompts of 10–80 words, Markdown replies of 1–3 KB, a failed
 * attempt marked retried with its chain record every 20 turns, fallback switches with notices. Deterministic (seed 42).
 */
final class BenchSessionWriter {
    static final long T0 = 1_796_121_000_000L;
    private static final ModelRef MAIN = new ModelRef("openai", "gpt-4.1-mini");
    private static final ModelRef FALLBACK = new ModelRef("ollama", "llama3.2");
    private static final String[] WORDS = ("the a session file line entry crash retry model provider fallback append "
                    + "journal JSON stream token context window usage limit overload request response header title user "
                    + "assistant message failure recover resume durable disk power cut kill write read parse")
            .split(" ");

    private final Random random = new Random(42);

    /** Writes the session through the codec without fsync: building the file is not what is measured. */
    Counts write(Path file, int messages) throws Exception {
        JournalCodec codec = new JournalCodec(new WireJson());
        Counts counts = new Counts();
        long ts = T0;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(codec.encodeHeader(SessionHeader.of("bench", T0, null)));
            int turn = 0;
            while (counts.messages < messages) {
                ts += 1000;
                String turnId = "turn-" + turn;
                counts.add(out, codec, MessageEntry.of(new UserMessage("u" + turn, words(10, 80), ts)), true);
                if (turn == 0) {
                    counts.add(out, codec, new TitleEntry("title-0", ts, "Benchmark session"), false);
                }
                if (turn % 20 == 7 && counts.messages < messages - 1) {
                    AssistantMessage failedAttempt = failed("f" + turn, ts + 100);
                    counts.add(out, codec, MessageEntry.of(failedAttempt), true);
                    counts.failed++;
                    counts.add(out, codec, new RetriedMark("r" + turn, ts + 101, failedAttempt.id(), true), false);
                    counts.add(
                            out,
                            codec,
                            new RetryChainEntry(
                                    "k" + turn,
                                    ts + 900,
                                    new RetryChainEnd(
                                            turnId,
                                            List.of(new RetryAttempt(
                                                    0,
                                                    ErrorKind.TRANSIENT,
                                                    503,
                                                    MAIN.selector(),
                                                    "work",
                                                    800L,
                                                    "503 Service Unavailable")),
                                            RetryEndReason.SUCCEEDED,
                                            null,
                                            ts + 100,
                                            ts + 900)),
                            false);
                }
                if (turn % 250 == 100) {
                    counts.add(
                            out,
                            codec,
                            new ModelChangeEntry(
                                    "c" + turn,
                                    ts + 200,
                                    MAIN,
                                    FALLBACK,
                                    ModelChangeEntry.ROLE_FALLBACK,
                                    ModelChangeEntry.REASON_FALLBACK),
                            false);
                    counts.add(
                            out,
                            codec,
                            new NoticeEntry(
                                    "n" + turn,
                                    ts + 201,
                                    "warning",
                                    "openai/gpt-4.1-mini is overloaded; continuing on ollama/llama3.2"),
                            false);
                }
                if (turn % 250 == 110) {
                    counts.add(
                            out,
                            codec,
                            new ModelChangeEntry(
                                    "c" + turn,
                                    ts + 200,
                                    FALLBACK,
                                    MAIN,
                                    ModelChangeEntry.ROLE_FALLBACK,
                                    ModelChangeEntry.REASON_REVERT),
                            false);
                }
                if (counts.messages < messages) {
                    counts.add(out, codec, MessageEntry.of(reply("a" + turn, ts + 999)), true);
                }
                turn++;
            }
        }
        return counts;
    }

    AssistantMessage reply(String id, long ts) {
        return new AssistantMessage(
                id,
                List.of(new ContentBlock.Text(markdown(1024 + random.nextInt(2048)))),
                "openai",
                "gpt-4.1-mini",
                "openai-completions",
                "work",
                new Usage(2000 + random.nextInt(50_000), 300 + random.nextInt(700), random.nextInt(2000), 0),
                StopReason.STOP,
                null,
                null,
                null,
                ts);
    }

    private AssistantMessage failed(String id, long ts) {
        return new AssistantMessage(
                id,
                List.of(),
                "openai",
                "gpt-4.1-mini",
                "openai-completions",
                "work",
                Usage.NONE,
                StopReason.ERROR,
                "503 Service Unavailable: the server is overloaded",
                null,
                new ProviderFailure(
                        FailureKind.HTTP,
                        503,
                        "server_error",
                        null,
                        Map.of("retry-after", "1", "x-request-id", "req_" + id)),
                ts);
    }

    /** Markdown of about that many characters: headings, paragraphs, a list, sometimes a code block. */
    private String markdown(int length) {
        StringBuilder text = new StringBuilder("## ").append(words(3, 6)).append("\n\n");
        while (text.length() < length) {
            switch (random.nextInt(4)) {
                case 0 ->
                    text.append("- **")
                            .append(words(1, 3))
                            .append("**: ")
                            .append(words(6, 15))
                            .append('\n');
                case 1 ->
                    text.append("```java\nvar x = ")
                            .append(random.nextInt(1000))
                            .append(";\n```\n\n");
                default -> text.append(words(20, 60)).append(".\n\n");
            }
        }
        return text.toString();
    }

    String words(int min, int max) {
        int count = min + random.nextInt(max - min + 1);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.toString();
    }

    /** What the generated session holds. */
    static final class Counts {
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
