package dev.rebound.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryEndReason;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.NoticeEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.history.SessionJournal;
import dev.rebound.history.SessionLoader;
import dev.rebound.history.TitleEntry;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import dev.rebound.transcript.UserMessage;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownExportTest {
    private static final long T0 = 1_796_121_000_000L; // 2026-12-01 10:30 UTC
    private static final ModelRef GPT = new ModelRef("openai", "gpt-4.1-mini");
    private static final ModelRef LLAMA = new ModelRef("ollama", "llama3.2");

    private final MarkdownExport export =
            new MarkdownExport(model -> model.equals(GPT) ? "GPT-4.1 mini" : model.selector(), ZoneId.of("UTC"));

    @TempDir
    Path dir;

    @Test
    void aChatBecomesTitleDatePromptsAndRepliesUnderHeadings() {
        String markdown = export.render(
                "Plans",
                T0,
                List.of(
                        MessageEntry.of(new UserMessage("u1", "Explain *JSON Lines*", T0 + 1)),
                        MessageEntry.of(reply("a1", GPT, "One object per line.\n\n- easy\n- appendable", T0 + 2))));

        assertThat(markdown).isEqualTo("""
                        # Plans

                        _Started 2026-12-01 10:30 UTC · exported from Rebound_

                        ## You

                        Explain *JSON Lines*

                        ## Assistant · GPT-4.1 mini

                        One object per line.

                        - easy
                        - appendable
                        """);
    }

    @Test
    void aRegeneratedTurnIsExportedAsTheChatShowsItNow() {
        String markdown = export.render(
                "Jokes",
                T0,
                List.of(
                        MessageEntry.of(new UserMessage("u1", "Tell me a joke", T0 + 1)),
                        MessageEntry.of(reply("a1", GPT, "The old joke.", T0 + 2)),
                        new dev.rebound.history.RewindEntry(
                                "w1", T0 + 3, "u1", dev.rebound.history.RewindEntry.REGENERATE),
                        MessageEntry.of(new UserMessage("u2", "Tell me a joke", T0 + 4)),
                        MessageEntry.of(reply("a2", GPT, "The new joke.", T0 + 5))));

        assertThat(markdown).contains("The new joke.").doesNotContain("The old joke.");
        assertThat(markdown.split("Tell me a joke", -1)).as("the prompt once").hasSize(2);
    }

    @Test
    void aRetriedReplySaysHowItRecoveredAndItsFailedAttemptsAreLeftOut() {
        AssistantMessage first = failed("f1", GPT, 529, "529 Overloaded", T0 + 2);
        AssistantMessage second = failed("f2", GPT, 529, "529 Overloaded", T0 + 3);
        String markdown = export.render(
                "Retry",
                T0,
                List.of(
                        MessageEntry.of(new UserMessage("u1", "Hi", T0 + 1)),
                        MessageEntry.of(first),
                        new RetriedMark("r1", T0 + 2, "f1", true),
                        MessageEntry.of(second),
                        new RetriedMark("r2", T0 + 3, "f2", true),
                        new ModelChangeEntry("c1", T0 + 4, GPT, LLAMA, "fallback", "fallback"),
                        MessageEntry.of(reply("a1", LLAMA, "Hello!", T0 + 5)),
                        new RetryChainEntry(
                                "k1",
                                T0 + 6,
                                new RetryChainEnd(
                                        "t1",
                                        List.of(
                                                attempt(0, ErrorKind.TRANSIENT, 529, GPT, "529 Overloaded"),
                                                attempt(1, ErrorKind.RATE_LIMIT, 429, GPT, "429 Too Many")),
                                        RetryEndReason.SUCCEEDED,
                                        null,
                                        T0 + 2,
                                        T0 + 6))));

        assertThat(markdown).contains("""
                        _Switched to ollama/llama3.2: GPT-4.1 mini was unavailable._

                        ## Assistant · ollama/llama3.2

                        _Recovered after 2 retries (overloaded 529, rate limit 429) · answered by ollama/llama3.2 \
                        instead of GPT-4.1 mini_

                        Hello!
                        """);
        assertThat(markdown).containsOnlyOnce("## Assistant");
        assertThat(markdown).doesNotContain("529 Overloaded");
    }

    @Test
    void aFailedChainAndAFailedReplyEndWithTheirErrorAndAStoppedReplyKeepsItsText() {
        String markdown = export.render(
                "Failures",
                T0,
                List.of(
                        MessageEntry.of(new UserMessage("u1", "one", T0 + 1)),
                        MessageEntry.of(failed("f1", GPT, 529, "Overloaded", T0 + 2)),
                        new RetryChainEntry(
                                "k1",
                                T0 + 3,
                                new RetryChainEnd(
                                        "t1",
                                        List.of(
                                                attempt(0, ErrorKind.TRANSIENT, 529, GPT, "Overloaded"),
                                                attempt(1, ErrorKind.TRANSIENT, 529, GPT, "Overloaded"),
                                                attempt(2, null, 529, GPT, "Overloaded")),
                                        RetryEndReason.EXHAUSTED,
                                        "Overloaded",
                                        T0 + 2,
                                        T0 + 3)),
                        MessageEntry.of(new UserMessage("u2", "two", T0 + 4)),
                        MessageEntry.of(failed("f2", GPT, 401, "401 Unauthorized: invalid key", T0 + 5)),
                        MessageEntry.of(new UserMessage("u3", "three", T0 + 6)),
                        MessageEntry.of(new AssistantMessage(
                                "a3",
                                List.of(new ContentBlock.Text("Half an ans")),
                                "openai",
                                "gpt-4.1-mini",
                                "openai-completions",
                                "work",
                                Usage.NONE,
                                StopReason.ABORTED,
                                "Request was aborted",
                                null,
                                null,
                                T0 + 7))));

        assertThat(markdown)
                .contains("## Assistant · GPT-4.1 mini\n\n_Retry failed after 2 attempts: Overloaded_\n")
                .contains("## Assistant · GPT-4.1 mini\n\n_Failed: 401 Unauthorized: invalid key_\n")
                .endsWith("## Assistant · GPT-4.1 mini\n\nHalf an ans\n\n_Stopped._\n");
        assertThat(markdown).as("never a credential label or a header").doesNotContain("work", "req_");
    }

    @Test
    void aCancelledRetrySaysSoWithTheLastError() {
        String markdown = export.render(
                "Cancel",
                T0,
                List.of(
                        MessageEntry.of(new UserMessage("u1", "Hi", T0 + 1)),
                        MessageEntry.of(failed("f1", GPT, 429, "429 Rate limited", T0 + 2)),
                        new RetriedMark("r1", T0 + 2, "f1", true),
                        new RetriedMark("r2", T0 + 3, "f1", false),
                        new RetryChainEntry(
                                "k1",
                                T0 + 4,
                                new RetryChainEnd(
                                        "t1",
                                        List.of(attempt(0, ErrorKind.RATE_LIMIT, 429, GPT, "429 Rate limited")),
                                        RetryEndReason.CANCELLED,
                                        "429 Rate limited",
                                        T0 + 2,
                                        T0 + 4))));

        assertThat(markdown).endsWith("_Retry cancelled. Last error: 429 Rate limited_\n");
    }

    @Test
    void noticesAreItalicLinesWithMarkdownEscapedAndReasoningIsAFoldedBlock() {
        AssistantMessage thought = new AssistantMessage(
                "a1",
                List.of(new ContentBlock.Thinking("Check *both* sides.", false), new ContentBlock.Text("Done.")),
                "openai",
                "gpt-4.1-mini",
                "openai-completions",
                null,
                Usage.NONE,
                StopReason.STOP,
                null,
                null,
                null,
                T0 + 2);
        String markdown = export.render(
                "Notes",
                T0,
                List.of(
                        new NoticeEntry("n1", T0, "warning", "Saving stopped: <disk> is_full\nretrying"),
                        MessageEntry.of(new UserMessage("u1", "Hi", T0 + 1)),
                        MessageEntry.of(thought)));

        assertThat(markdown)
                .contains("\n_Saving stopped: \\<disk\\> is\\_full retrying_\n")
                .contains("""
                        ## Assistant · GPT-4.1 mini

                        <details>
                        <summary>Reasoning</summary>

                        Check *both* sides.

                        </details>

                        Done.
                        """);
    }

    @Test
    void codeBlocksAreKeptVerbatimAndAnUnclosedOneIsClosed() {
        String code = "Here:\n\n```java\nclass A {\n\n    // ## not a heading\n    int x = 1;\n}\n```\n\n"
                + "~~~\nraw *text* <b>\n~~~\n";
        String markdown = export.render(
                "Code",
                T0,
                List.of(
                        MessageEntry.of(new UserMessage("u1", "code please", T0 + 1)),
                        MessageEntry.of(reply("a1", GPT, code, T0 + 2)),
                        MessageEntry.of(new UserMessage("u2", "more", T0 + 3)),
                        MessageEntry.of(reply("a2", GPT, "Cut:\n\n````python\nprint(1)\n```\n", T0 + 4)),
                        new NoticeEntry("n1", T0 + 5, "info", "after the cut")));

        assertThat(markdown).contains(code);
        assertThat(markdown).contains("Cut:\n\n````python\nprint(1)\n```\n````\n\n_after the cut_\n");
    }

    @Test
    void anUntitledChatIsCalledNewChatAndTheTitleIsEscapedInTheHeading() {
        assertThat(export.render(null, T0, List.of())).startsWith("# New chat\n");
        assertThat(export.render("Why *this*? #1", T0, List.of())).startsWith("# Why \\*this\\*? \\#1\n");
    }

    @Test
    void fileNamesAreSafeOnEverySystem() {
        assertThat(MarkdownExport.fileName("Plans: a/b \\ c?")).isEqualTo("Plans a-b - c.md");
        assertThat(MarkdownExport.fileName("Q&A \"quotes\" <tags> *star* pipe|x"))
                .isEqualTo("Q&A quotes tags star pipe-x.md");
        assertThat(MarkdownExport.fileName("  ..hidden.  ")).isEqualTo("hidden.md");
        assertThat(MarkdownExport.fileName("con")).isEqualTo("Chat con.md");
        assertThat(MarkdownExport.fileName(null)).isEqualTo("Chat.md");
        assertThat(MarkdownExport.fileName("::")).isEqualTo("Chat.md");
        assertThat(MarkdownExport.fileName("é".repeat(150))).isEqualTo("é".repeat(100) + ".md");
        assertThat(MarkdownExport.fileName("line\nbreak\ttab")).isEqualTo("line break tab.md");
    }

    @Test
    void aSavedChatIsExportedFromItsFile() throws Exception {
        Path sessions = dir.resolve("sessions");
        Path file;
        try (SessionJournal journal = SessionJournal.create(sessions, "s1", T0, null)) {
            journal.append(MessageEntry.of(new UserMessage("u1", "From the file", T0 + 1)));
            journal.append(new TitleEntry("t1", T0 + 2, "Saved: a/b"));
            file = journal.file();
        }
        var loaded = new SessionLoader().load(file);

        String markdown = export.render(loaded.title(), loaded.header().created(), loaded.entries());

        assertThat(markdown).startsWith("# Saved: a/b\n").contains("## You\n\nFrom the file\n");
        assertThat(MarkdownExport.fileName(loaded.title())).isEqualTo("Saved a-b.md");
    }

    private static AssistantMessage reply(String id, ModelRef model, String text, long ts) {
        return new AssistantMessage(
                id,
                List.of(new ContentBlock.Text(text)),
                model.provider(),
                model.id(),
                "openai-completions",
                "work",
                Usage.NONE,
                StopReason.STOP,
                null,
                null,
                null,
                ts);
    }

    private static AssistantMessage failed(String id, ModelRef model, int status, String error, long ts) {
        return new AssistantMessage(
                id,
                List.of(),
                model.provider(),
                model.id(),
                "openai-completions",
                "work",
                Usage.NONE,
                StopReason.ERROR,
                error,
                null,
                new ProviderFailure(FailureKind.HTTP, status, "err", null, Map.of("x-request-id", "req_1")),
                ts);
    }

    private static RetryAttempt attempt(int number, ErrorKind kind, int status, ModelRef model, String error) {
        return new RetryAttempt(number, kind, status, model.selector(), "work", 100L, error);
    }
}
