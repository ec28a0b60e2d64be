package dev.rebound.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryEndReason;
import dev.rebound.event.SessionEvent;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.history.TitleEntry;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryReplayTest {
    private static final ModelRef CLAUDE = new ModelRef("anthropic", "claude");
    private static final ModelRef GPT = new ModelRef("openai", "gpt");

    private static AssistantMessage failed(String id, ModelRef model) {
        return new AssistantMessage(
                id,
                List.of(),
                model.provider(),
                model.id(),
                "openai-completions",
                "work",
                null,
                StopReason.ERROR,
                "529 Overloaded",
                null,
                null,
                100);
    }

    private static AssistantMessage answer(String id, ModelRef model) {
        return new AssistantMessage(
                id,
                List.of(new ContentBlock.Text("Hello")),
                model.provider(),
                model.id(),
                "openai-completions",
                null,
                null,
                StopReason.STOP,
                null,
                null,
                null,
                300);
    }

    @Test
    void aRetriedTurnReplaysAsTheLiveSessionEmittedItWithEachRetryTakenFromTheChainsRecord() {
        RetryChainEnd chain = new RetryChainEnd(
                "t1",
                List.of(
                        new RetryAttempt(
                                0, ErrorKind.TRANSIENT, 529, "anthropic/claude", "work", 438L, "529 Overloaded"),
                        new RetryAttempt(1, ErrorKind.RATE_LIMIT, 429, "anthropic/claude", "work", 875L, "429")),
                RetryEndReason.SUCCEEDED,
                null,
                100,
                300);
        List<JournalEntry> history = List.of(
                MessageEntry.of(new UserMessage("u1", "Hi", 50)),
                MessageEntry.of(failed("a1", CLAUDE)),
                new RetriedMark("r1", 100, "a1", true),
                MessageEntry.of(failed("a2", CLAUDE)),
                new RetriedMark("r2", 200, "a2", true),
                new ModelChangeEntry("c1", 250, CLAUDE, GPT, "fallback", "fallback"),
                MessageEntry.of(answer("a3", GPT)),
                new RetryChainEntry("k1", 300, chain),
                new TitleEntry("t1", 310, "Greeting"));

        List<SessionEvent> events = HistoryReplay.events(history);

        assertThat(events)
                .extracting(SessionEvent::type)
                .containsExactly(
                        "message_start",
                        "message_end",
                        "message_start",
                        "message_end",
                        "auto_retry_start",
                        "message_start",
                        "message_end",
                        "auto_retry_start",
                        "retry_fallback_applied",
                        "model_changed",
                        "message_start",
                        "message_end",
                        "auto_retry_end",
                        "retry_chain_end");
        List<AutoRetryStart> starts = events.stream()
                .filter(AutoRetryStart.class::isInstance)
                .map(AutoRetryStart.class::cast)
                .toList();
        assertThat(starts).extracting(AutoRetryStart::attempt).containsExactly(1, 2);
        assertThat(starts)
                .extracting(AutoRetryStart::errorKind)
                .containsExactly(ErrorKind.TRANSIENT, ErrorKind.RATE_LIMIT);
        assertThat(starts).extracting(AutoRetryStart::delayMs).containsExactly(438L, 875L);
        AutoRetryEnd end = (AutoRetryEnd) events.get(12);
        assertThat(end.success()).isTrue();
        assertThat(end.attempt()).isEqualTo(2);
        assertThat(events.get(13)).isSameAs(chain);
    }

    @Test
    void aChainThatGaveUpReportsTheRetriesMadeAndItsErrorAndARetryWithNoRecordKeepsWhatTheMessageSays() {
        RetryChainEnd exhausted = new RetryChainEnd(
                "t1",
                List.of(
                        new RetryAttempt(
                                0, ErrorKind.TRANSIENT, 529, "anthropic/claude", "work", 438L, "529 Overloaded"),
                        new RetryAttempt(
                                1, ErrorKind.TRANSIENT, 529, "anthropic/claude", "work", null, "529 Overloaded")),
                RetryEndReason.EXHAUSTED,
                "529 Overloaded",
                100,
                600);
        List<SessionEvent> gaveUp = HistoryReplay.events(List.of(
                MessageEntry.of(failed("a1", CLAUDE)),
                new RetriedMark("r1", 100, "a1", true),
                MessageEntry.of(failed("a2", CLAUDE)),
                new RetryChainEntry("k1", 600, exhausted)));
        AutoRetryEnd end = (AutoRetryEnd) gaveUp.get(gaveUp.size() - 2);
        assertThat(end.success()).isFalse();
        assertThat(end.attempt()).isEqualTo(1);
        assertThat(end.finalError()).isEqualTo("529 Overloaded");

        List<SessionEvent> interrupted = HistoryReplay.events(
                List.of(MessageEntry.of(failed("a1", CLAUDE)), new RetriedMark("r1", 100, "a1", true)));
        AutoRetryStart start = (AutoRetryStart) interrupted.getLast();
        assertThat(start.errorKind()).isNull();
        assertThat(start.delayMs()).isZero();
        assertThat(start.errorMessage()).isEqualTo("529 Overloaded");
    }
}
