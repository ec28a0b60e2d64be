package dev.rebound.session;

import static org.assertj.core.api.Assertions.assertThat;

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

    private static HistoryEntry user(String id) {
        return new HistoryEntry.Message(new UserMessage(id, id, 1), false, 1);
    }

    private static HistoryEntry reply(String id, ModelRef model, StopReason stop, boolean retried) {
        return new HistoryEntry.Message(
                new AssistantMessage(
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
                        1),
                retried,
                1);
    }

    @Test
    void promptsThatNeverGotAReplyStayInHistoryButLeaveTheContext() {
        RestoredSession s = new RestoredSession(
                "s",
                List.of(
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
    void aFinalFailedReplyIsAnAnswerNotAnInterruption() {
        RestoredSession s =
                new RestoredSession("s", List.of(user("u1"), reply("a1", CLAUDE, StopReason.ERROR, false)), CLAUDE);
        assertThat(s.context()).extracting(ChatMessage::id).containsExactly("u1", "a1");
        assertThat(s.interrupted()).isFalse();
    }
}
