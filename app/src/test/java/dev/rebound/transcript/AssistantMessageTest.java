package dev.rebound.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AssistantMessageTest {

    private static AssistantMessage failed(List<ContentBlock> content, StopDetails details) {
        return new AssistantMessage(
                "m1",
                content,
                "p",
                "m",
                "openai-completions",
                null,
                null,
                StopReason.ERROR,
                "boom",
                details,
                ProviderFailure.of(FailureKind.TRANSPORT),
                0);
    }

    @Test
    void aFailureWithNoContentHasNoObservableOutput() {
        assertThat(failed(List.of(), null).hasObservableOutput()).isFalse();
        assertThat(failed(List.of(new ContentBlock.Text("")), null).hasObservableOutput())
                .isFalse();
    }

    @Test
    void textThinkingRedactedThinkingAndToolCallsAreObservable() {
        assertThat(failed(List.of(new ContentBlock.Text("Hel")), null).hasObservableOutput())
                .isTrue();
        assertThat(failed(List.of(new ContentBlock.Thinking("hmm", false)), null)
                        .hasObservableOutput())
                .isTrue();
        assertThat(failed(List.of(new ContentBlock.Thinking("", true)), null).hasObservableOutput())
                .isTrue();
        assertThat(failed(List.of(new ContentBlock.ToolCall("c", "f", "{}")), null)
                        .hasObservableOutput())
                .isTrue();
    }

    @Test
    void anInterruptedAfterContentStopDetailIsObservableEvenWithoutBlocks() {
        StopDetails interrupted = new StopDetails(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT, null);
        assertThat(failed(List.of(), interrupted).hasObservableOutput()).isTrue();
    }

    @Test
    void textJoinsOnlyTheTextBlocks() {
        AssistantMessage m = failed(
                List.of(new ContentBlock.Thinking("x", false), new ContentBlock.Text("a"), new ContentBlock.Text("b")),
                null);
        assertThat(m.text()).isEqualTo("ab");
    }

    @Test
    void aSingleTextBlockIsReturnedWithoutACopy() {
        String reply = new String("the whole reply");
        AssistantMessage m = failed(List.of(new ContentBlock.Text(reply)), null);
        assertThat(m.text()).isSameAs(reply);
    }
}
