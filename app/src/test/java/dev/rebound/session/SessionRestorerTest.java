package dev.rebound.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.history.JournalEntry;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionRestorerTest {
    private static final ModelRef CLAUDE = ModelRef.parse("anthropic/claude");
    private static final ModelRef GPT = ModelRef.parse("openai/gpt");

    private static List<JournalEntry> user(String id) {
        return List.of(MessageEntry.of(new UserMessage(id, id, 1)));
    }

    /** The reply's entry, and a retried mark after it when it was retried. */
    private static List<JournalEntry> reply(String id, ModelRef model, StopReason stop, boolean retried) {
        MessageEntry entry = MessageEntry.of(new AssistantMessage(
                id,
                List.of(new ContentBlock.Text("x")),
                model.provider(),
                model.id(),
                "openai-completions",
                null,
                null,
                stop,
                stop == StopReason.ERROR ? "503" : null,
                null,
                null,
                1));
        return retried ? List.of(entry, new RetriedMark("mark-" + id, 1, id, true)) : List.of(entry);
    }

    @SafeVarargs
    private static List<JournalEntry> entries(List<JournalEntry>... parts) {
        return java.util.Arrays.stream(parts).flatMap(List::stream).toList();
    }

    @Test
    void promptsThatNeverGotAReplyStayInHistoryButLeaveTheContext() {
        RestoredSession s = new RestoredSession(
                "s",
                entries(
                        user("u1"),
                        reply("a1", CLAUDE, StopReason.STOP, false),
                        user("u2"),
                        reply("a2", CLAUDE, StopReason.ERROR, true),
                        user("u3"),
                        reply("a3", CLAUDE, StopReason.STOP, false),
                        user("u4")),
                CLAUDE);
        assertThat(s.context()).extracting(ChatMessage::id).containsExactly("u1", "a1", "u3", "a3");
        assertThat(s.interrupted()).isTrue();
    }

    @Test
    void aFailureWhoseRetryWasCancelledIsBackInTheContextByItsLatestMark() {
        RestoredSession s = new RestoredSession(
                "s",
                entries(
                        user("u1"),
                        reply("a1", CLAUDE, StopReason.ERROR, true),
                        List.of(new RetriedMark("unmark-a1", 2, "a1", false))),
                CLAUDE);
        assertThat(s.context()).extracting(ChatMessage::id).containsExactly("u1", "a1");
        assertThat(s.interrupted()).isFalse();
    }

    @Test
    void aFinalFailedReplyIsAnAnswerNotAnInterruption() {
        RestoredSession s =
                new RestoredSession("s", entries(user("u1"), reply("a1", CLAUDE, StopReason.ERROR, false)), CLAUDE);
        assertThat(s.context()).extracting(ChatMessage::id).containsExactly("u1", "a1");
        assertThat(s.interrupted()).isFalse();
    }
}
