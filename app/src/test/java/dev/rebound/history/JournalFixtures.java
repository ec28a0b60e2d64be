package dev.rebound.history;

import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryEndReason;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import dev.rebound.transcript.UserMessage;
import java.util.List;
import java.util.Map;

/** Entries of every type, with the details a real session has. */
final class JournalFixtures {
    static final long T0 = 1_796_121_000_000L;
    static final ModelRef OPENAI = new ModelRef("openai", "gpt-4.1-mini");
    static final ModelRef OLLAMA = new ModelRef("ollama", "llama3.2");

    private JournalFixtures() {}

    static UserMessage user(String id, String text, long ts) {
        return new UserMessage(id, text, ts);
    }

    static AssistantMessage reply(String id, String text, long ts) {
        return new AssistantMessage(
                id,
                List.of(new ContentBlock.Thinking("Let me think.", false), new ContentBlock.Text(text)),
                "openai",
                "gpt-4.1-mini",
                "openai-completions",
                "work",
                new Usage(1200, 340, 1000, 0),
                StopReason.STOP,
                null,
                null,
                null,
                ts);
    }

    static AssistantMessage failed(String id, long ts) {
        return new AssistantMessage(
                id,
                List.of(new ContentBlock.Text("Partial an")),
                "openai",
                "gpt-4.1-mini",
                "openai-completions",
                "work",
                new Usage(1200, 3, 0, 0),
                StopReason.ERROR,
                "503 Service Unavailable: upstream overloaded",
                new StopDetails(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT, "the stream broke"),
                new ProviderFailure(
                        FailureKind.HTTP,
                        503,
                        "server_error",
                        "overloaded",
                        Map.of("retry-after", "2", "x-request-id", "req_123")),
                ts);
    }

    static AssistantMessage refused(String id, long ts) {
        return new AssistantMessage(
                id,
                List.of(
                        new ContentBlock.Thinking(null, true),
                        new ContentBlock.ToolCall("call_1", "search", "{\"q\":\"weather\"}")),
                "anthropic",
                "claude-sonnet-4-5",
                "anthropic-messages",
                null,
                Usage.NONE,
                StopReason.ABORTED,
                "aborted",
                new StopDetails(StopDetails.REFUSAL, "policy"),
                ProviderFailure.of(FailureKind.TIMEOUT),
                ts);
    }

    static RetryChainEnd chain(long ts) {
        return new RetryChainEnd(
                "turn-1",
                List.of(
                        new RetryAttempt(
                                0, ErrorKind.TRANSIENT, 503, "openai/gpt-4.1-mini", "work", 500L, "overloaded"),
                        new RetryAttempt(1, null, null, "ollama/llama3.2", null, null, "connection refused")),
                RetryEndReason.NOT_RETRYABLE,
                "connection refused",
                ts - 900,
                ts);
    }

    /** One entry of each type, every field set somewhere, in a plausible order. */
    static List<JournalEntry> everyType() {
        return List.of(
                MessageEntry.of(user("u1", "Explain **JSON Lines**\nin two lines.", T0)),
                MessageEntry.of(failed("a1", T0 + 10)),
                new RetriedMark("r1", T0 + 11, "a1", true),
                new ModelChangeEntry(
                        "c1",
                        T0 + 12,
                        OPENAI,
                        OLLAMA,
                        ModelChangeEntry.ROLE_FALLBACK,
                        ModelChangeEntry.REASON_FALLBACK),
                MessageEntry.of(refused("a2", T0 + 20)),
                new RetriedMark("r2", T0 + 21, "a1", false),
                new RetryChainEntry("k1", T0 + 22, chain(T0 + 22)),
                new ModelChangeEntry(
                        "c2", T0 + 23, null, OPENAI, ModelChangeEntry.ROLE_USER, ModelChangeEntry.REASON_USER),
                MessageEntry.of(reply("a3", "One object per line.\n\nAppend only. «ünïcode» ✓ 🎉", T0 + 30)),
                new NoticeEntry("n1", T0 + 31, "warning", "Switched to ollama/llama3.2 while openai is overloaded"),
                new TitleEntry("t1", T0 + 32, "JSON Lines explained"));
    }
}
