package dev.rebound.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.files.FileProblem;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.StopReason;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a real process with SIGKILL while it appends, resumes the file in the next process, and checks that every
 * acknowledged entry survived, nothing is duplicated, and the only damage is at most one cut line per kill.
 */
class SessionJournalCrashTest {
    private static final int KILLS = 6;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedEntrySurvivesSigkillAndEachResumedProcessAppendsToTheSameFile() throws Exception {
        Random random = new Random(7);
        List<String> acknowledged = new ArrayList<>();
        for (int run = 0; run < KILLS; run++) {
            Process child = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            AppendUntilKilled.class.getName(),
                            dir.toString(),
                            "r" + run)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            int killAfter = 20 + random.nextInt(200);
            try (BufferedReader acks =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (int i = 0; i < killAfter; i++) {
                    acknowledged.add(acks.readLine());
                }
                child.destroyForcibly();
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            LoadedSession loaded = new SessionLoader().load(dir.resolve("crash.jsonl"));
            List<String> ids = loaded.entries().stream().map(JournalEntry::id).toList();
            assertThat(ids).as("run %d", run).containsAll(acknowledged).doesNotHaveDuplicates();
            // Linux can stop a multi-page write at a page boundary on SIGKILL: at most one cut line per kill.
            assertThat(loaded.problems())
                    .as("only lines cut by a kill are damaged")
                    .hasSizeLessThanOrEqualTo(run + 1)
                    .extracting(FileProblem::message)
                    .allMatch(m -> m.contains("is not a complete entry"));
        }
        assertThat(acknowledged).doesNotContainNull();
    }

    /** The child: creates or resumes the session and appends until killed, printing each id once it is written. */
    static final class AppendUntilKilled {
        public static void main(String[] args) throws Exception {
            Path sessions = Path.of(args[0]);
            Path file = sessions.resolve("crash.jsonl");
            PrintStream acks = System.out;
            try (SessionJournal journal = Files.exists(file)
                    ? SessionJournal.openForAppend(file)
                    : SessionJournal.create(sessions, "crash", 1, null)) {
                for (int i = 0; ; i++) {
                    String id = args[1] + "-" + i;
                    journal.append(MessageEntry.of(new AssistantMessage(
                            id,
                            List.of(new ContentBlock.Text("reply ".repeat(200 + i % 3000))),
                            "openai",
                            "m",
                            "openai-completions",
                            "work",
                            null,
                            StopReason.STOP,
                            null,
                            null,
                            null,
                            i)));
                    acks.println(id);
                }
            }
        }
    }
}
