package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.api.AgentEnd;
import dev.rebound.api.AgentStart;
import dev.rebound.api.AssistantMessage;
import dev.rebound.api.AutoRetryEnd;
import dev.rebound.api.AutoRetryStart;
import dev.rebound.api.ContentBlock;
import dev.rebound.api.CredentialSwitched;
import dev.rebound.api.DeltaKind;
import dev.rebound.api.ErrorKind;
import dev.rebound.api.FailureKind;
import dev.rebound.api.MessageEnd;
import dev.rebound.api.MessageStart;
import dev.rebound.api.MessageUpdate;
import dev.rebound.api.ModelChangeReason;
import dev.rebound.api.ModelChanged;
import dev.rebound.api.ModelRef;
import dev.rebound.api.Notice;
import dev.rebound.api.NoticeLevel;
import dev.rebound.api.ProviderFailure;
import dev.rebound.api.RetryAttempt;
import dev.rebound.api.RetryChainEnd;
import dev.rebound.api.RetryEndReason;
import dev.rebound.api.RetryFallbackApplied;
import dev.rebound.api.RetryFallbackReverted;
import dev.rebound.api.RetryFallbackSucceeded;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionRef;
import dev.rebound.api.StopDetails;
import dev.rebound.api.StopReason;
import dev.rebound.api.Usage;
import dev.rebound.api.UserMessage;
import dev.rebound.session.EventScope;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every internal event in its published form: every field carried over, the chat and turn added. */
class PublishedEventsTest {
    private static final EventScope SCOPE =
            new EventScope("s-1", Path.of("/home/u/.rebound/sessions/s-1.jsonl"), "t-1");
    private static final SessionRef CHAT = new SessionRef("s-1", "s-1.jsonl");
    private static final EventScope BETWEEN_TURNS = new EventScope("s-1", null, null);
    private static final dev.rebound.transcript.ModelRef INTERNAL_CLAUDE =
            new dev.rebound.transcript.ModelRef("anthropic", "claude-sonnet-4-5");
    private static final ModelRef CLAUDE = new ModelRef("anthropic", "claude-sonnet-4-5");
    private static final ModelRef GPT = new ModelRef("openai", "gpt-5");

    private static SessionEvent published(dev.rebound.event.SessionEvent event) {
        return PublishedEvents.of(event, SCOPE);
    }

    @Test
    void turnAndMessageEventsKeepEveryFieldAndNameTheirChatAndTurn() {
        assertThat(published(new dev.rebound.event.AgentStart("t-1"))).isEqualTo(new AgentStart(CHAT, "t-1"));
        assertThat(published(new dev.rebound.event.AgentEnd("t-1", true))).isEqualTo(new AgentEnd(CHAT, "t-1", true));
        assertThat(published(
                        new dev.rebound.event.MessageUpdate("m-1", dev.rebound.event.MessageUpdate.THINKING, "hmm")))
                .isEqualTo(new MessageUpdate(CHAT, "t-1", "m-1", DeltaKind.THINKING, "hmm"));
        assertThat(published(
                        new dev.rebound.event.MessageStart(new dev.rebound.transcript.UserMessage("u-1", "Hi", 5))))
                .isEqualTo(new MessageStart(CHAT, "t-1", new UserMessage("u-1", "Hi", 5)));

        dev.rebound.transcript.AssistantMessage internal = new dev.rebound.transcript.AssistantMessage(
                "m-1",
                List.of(
                        new dev.rebound.transcript.ContentBlock.Thinking("hmm", false),
                        new dev.rebound.transcript.ContentBlock.Text("Hel"),
                        new dev.rebound.transcript.ContentBlock.ToolCall("c1", "search", "{}")),
                "anthropic",
                "claude-sonnet-4-5",
                "openai-completions",
                "work",
                new dev.rebound.transcript.Usage(12, 3, 4, 5),
                dev.rebound.transcript.StopReason.ERROR,
                "529 Overloaded",
                new dev.rebound.transcript.StopDetails("stream_interrupted_after_content", "cut"),
                new dev.rebound.transcript.ProviderFailure(
                        dev.rebound.transcript.FailureKind.HTTP,
                        529,
                        "overloaded_error",
                        null,
                        Map.of("retry-after", "3")),
                9);
        assertThat(published(new dev.rebound.event.MessageEnd(internal)))
                .isEqualTo(new MessageEnd(
                        CHAT,
                        "t-1",
                        new AssistantMessage(
                                "m-1",
                                List.of(
                                        new ContentBlock.Thinking("hmm", false),
                                        new ContentBlock.Text("Hel"),
                                        new ContentBlock.ToolCall("c1", "search", "{}")),
                                CLAUDE,
                                "openai-completions",
                                "work",
                                new Usage(12, 3, 4, 5),
                                StopReason.ERROR,
                                "529 Overloaded",
                                new StopDetails("stream_interrupted_after_content", "cut"),
                                new ProviderFailure(
                                        FailureKind.HTTP, 529, "overloaded_error", null, Map.of("retry-after", "3")),
                                9)));
    }

    @Test
    void retryFallbackAndCredentialEventsCarryModelRefsAndEnums() {
        assertThat(published(new dev.rebound.event.AutoRetryStart(
                        1,
                        10,
                        438,
                        "529 Overloaded",
                        dev.rebound.event.ErrorKind.TRANSIENT,
                        "anthropic/claude-sonnet-4-5",
                        "work",
                        1438)))
                .isEqualTo(new AutoRetryStart(
                        CHAT, "t-1", 1, 10, 438, "529 Overloaded", ErrorKind.TRANSIENT, CLAUDE, "work", 1438));
        assertThat(published(new dev.rebound.event.AutoRetryEnd(
                        false, 3, "boom", dev.rebound.event.RetryEndReason.MAX_DELAY_EXCEEDED)))
                .isEqualTo(new AutoRetryEnd(CHAT, "t-1", false, 3, "boom", RetryEndReason.MAX_DELAY_EXCEEDED));
        assertThat(published(new dev.rebound.event.RetryChainEnd(
                        "t-1",
                        List.of(new dev.rebound.event.RetryAttempt(
                                0,
                                dev.rebound.event.ErrorKind.USAGE_LIMIT,
                                429,
                                "openrouter/meta-llama/llama-3",
                                "work",
                                null,
                                "429")),
                        dev.rebound.event.RetryEndReason.EXHAUSTED,
                        "429",
                        1,
                        2)))
                .isEqualTo(new RetryChainEnd(
                        CHAT,
                        "t-1",
                        List.of(new RetryAttempt(
                                0,
                                ErrorKind.USAGE_LIMIT,
                                429,
                                new ModelRef("openrouter", "meta-llama/llama-3"),
                                "work",
                                null,
                                "429")),
                        RetryEndReason.EXHAUSTED,
                        "429",
                        1,
                        2));
        assertThat(published(new dev.rebound.event.CredentialSwitched("anthropic", "work", "personal")))
                .isEqualTo(new CredentialSwitched(CHAT, "t-1", "anthropic", "work", "personal"));
        assertThat(published(new dev.rebound.event.RetryFallbackApplied(
                        "anthropic/claude-sonnet-4-5", "openai/gpt-5", "default")))
                .isEqualTo(new RetryFallbackApplied(CHAT, "t-1", CLAUDE, GPT, "default"));
        assertThat(published(new dev.rebound.event.RetryFallbackSucceeded("openai/gpt-5", "default")))
                .isEqualTo(new RetryFallbackSucceeded(CHAT, "t-1", GPT, "default"));
        assertThat(published(
                        new dev.rebound.event.RetryFallbackReverted("openai/gpt-5", "anthropic/claude-sonnet-4-5")))
                .isEqualTo(new RetryFallbackReverted(CHAT, "t-1", GPT, CLAUDE));
    }

    @Test
    void eventsBetweenTurnsHaveNoTurnAndAnUnsavedChatHasNoFile() {
        assertThat(PublishedEvents.of(new dev.rebound.event.Notice("warning", "careful"), BETWEEN_TURNS))
                .isEqualTo(new Notice(new SessionRef("s-1", null), null, NoticeLevel.WARNING, "careful"));
        assertThat(PublishedEvents.of(
                        new dev.rebound.event.ModelChanged(null, INTERNAL_CLAUDE, dev.rebound.event.ModelChanged.USER),
                        BETWEEN_TURNS))
                .isEqualTo(new ModelChanged(new SessionRef("s-1", null), null, null, CLAUDE, ModelChangeReason.USER));
    }

    @ParameterizedTest
    @EnumSource(dev.rebound.event.RetryEndReason.class)
    void everyEndReasonHasItsPublishedNameAndWireName(dev.rebound.event.RetryEndReason reason) {
        AutoRetryEnd end = (AutoRetryEnd) published(new dev.rebound.event.AutoRetryEnd(false, 1, "x", reason));
        assertThat(end.reason().name()).isEqualTo(reason.name());
        assertThat(end.reason().toString()).isEqualTo(reason.toString());
    }

    @Test
    void everyInternalEnumValueHasAPublishedOneOfTheSameWireName() {
        assertThat(wireNames(dev.rebound.event.ErrorKind.values())).isEqualTo(wireNames(ErrorKind.values()));
        assertThat(wireNames(dev.rebound.transcript.StopReason.values())).isEqualTo(wireNames(StopReason.values()));
        assertThat(wireNames(dev.rebound.transcript.FailureKind.values())).isEqualTo(wireNames(FailureKind.values()));
    }

    @Test
    void everyInternalEventTypeHasAPublishedOneOfTheSameWireName() {
        assertThat(Arrays.stream(dev.rebound.event.SessionEvent.class.getPermittedSubclasses())
                        .map(Class::getSimpleName)
                        .sorted())
                .containsExactlyElementsOf(Arrays.stream(SessionEvent.class.getPermittedSubclasses())
                        .map(Class::getSimpleName)
                        .sorted()
                        .toList());
    }

    private static List<String> wireNames(Enum<?>[] values) {
        return Arrays.stream(values).map(Object::toString).toList();
    }
}
