package dev.rebound.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PublishedRecordsTest {

    private static final ModelRef MODEL = new ModelRef("anthropic", "claude-sonnet-4-5");

    @Test
    void everyEventStartsWithItsSessionAndTurn() {
        for (Class<?> type : SessionEvent.class.getPermittedSubclasses()) {
            RecordComponent[] components = type.getRecordComponents();
            assertThat(components[0].getName()).as(type.getSimpleName()).isEqualTo("session");
            assertThat(components[0].getType()).as(type.getSimpleName()).isEqualTo(SessionRef.class);
            assertThat(components[1].getName()).as(type.getSimpleName()).isEqualTo("turnId");
        }
    }

    @Test
    void modelsAreModelRefsAndClosedVocabulariesAreEnumsEverywhere() {
        List<Class<?>> records = new java.util.ArrayList<>(List.of(SessionEvent.class.getPermittedSubclasses()));
        records.add(RetryAttempt.class);
        records.add(AssistantMessage.class);
        for (Class<?> type : records) {
            for (RecordComponent c : type.getRecordComponents()) {
                if (List.of("model", "from", "to").contains(c.getName()) && !type.equals(CredentialSwitched.class)) {
                    assertThat(c.getType())
                            .as(type.getSimpleName() + "." + c.getName())
                            .isEqualTo(ModelRef.class);
                }
                if (List.of("level", "kind", "reason", "errorKind", "stopReason")
                        .contains(c.getName())) {
                    assertThat(c.getType().isEnum())
                            .as(type.getSimpleName() + "." + c.getName())
                            .isTrue();
                }
            }
        }
    }

    @Test
    void theNamedFactoriesBuildEachKindOfReply() {
        AssistantMessage started = AssistantMessage.started("m1", MODEL, 5);
        assertThat(started.content()).isEmpty();
        assertThat(started.stopReason()).isNull();
        assertThat(started.usage()).isEqualTo(Usage.NONE);

        AssistantMessage answered = AssistantMessage.answered("m1", MODEL, "Hello", 9)
                .withCall("anthropic-messages", "work")
                .withUsage(new Usage(10, 2, 0, 0));
        assertThat(answered.text()).isEqualTo("Hello");
        assertThat(answered.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(answered.api()).isEqualTo("anthropic-messages");
        assertThat(answered.credential()).isEqualTo("work");
        assertThat(answered.usage().totalTokens()).isEqualTo(12);

        AssistantMessage failed = AssistantMessage.failed(
                "m2", MODEL, "529 Overloaded", ProviderFailure.http(529, "overloaded_error", null), 9);
        assertThat(failed.isError()).isTrue();
        assertThat(failed.failure().httpStatus()).isEqualTo(529);
        assertThat(failed.failure().kind()).isEqualTo(FailureKind.HTTP);

        AssistantMessage aborted = AssistantMessage.aborted("m3", MODEL, "Request was aborted", 9)
                .withContent(List.of(new ContentBlock.Text("Hel")));
        assertThat(aborted.stopReason()).isEqualTo(StopReason.ABORTED);
        assertThat(aborted.text()).isEqualTo("Hel");
    }

    @Test
    void textJoinsOnlyTheTextBlocks() {
        AssistantMessage m = AssistantMessage.started("m", MODEL, 0)
                .withContent(List.of(
                        new ContentBlock.Thinking("x", false), new ContentBlock.Text("a"), new ContentBlock.Text("b")));
        assertThat(m.text()).isEqualTo("ab");
    }

    @Test
    void aMessageNeedsAnIdAndAModelAndASessionNeedsAnId() {
        assertThatThrownBy(() -> AssistantMessage.started(null, MODEL, 0)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> AssistantMessage.started("m", null, 0)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new SessionRef(null, "x.jsonl")).isInstanceOf(NullPointerException.class);
        assertThat(new SessionRef("s1", null).chatFile()).isNull();
    }

    @Test
    void enumsRenderAsTheirWireNames() {
        assertThat(Arrays.stream(NoticeLevel.values()).map(Object::toString))
                .containsExactly("info", "warning", "error");
        assertThat(DeltaKind.THINKING).hasToString("thinking");
        assertThat(ModelChangeReason.REVERT).hasToString("revert");
        assertThat(ErrorKind.RATE_LIMIT).hasToString("rate_limit");
        assertThat(RetryEndReason.MAX_DELAY_EXCEEDED).hasToString("max_delay_exceeded");
    }
}
