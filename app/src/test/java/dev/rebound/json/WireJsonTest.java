package dev.rebound.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.event.AgentEnd;
import dev.rebound.event.MessageEnd;
import dev.rebound.event.MessageUpdate;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import dev.rebound.transcript.UserMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WireJsonTest {
    private final WireJson wire = new WireJson();

    /** A finished reply with reasoning, text, a credential and usage: most of what a message's writer covers. */
    private static final AssistantMessage REPLY = new AssistantMessage(
            "m1",
            List.of(new ContentBlock.Thinking("hm", false), new ContentBlock.Text("Hi")),
            "openai",
            "gpt",
            "openai-completions",
            "work",
            new Usage(3, 4, 0, 0),
            StopReason.STOP,
            null,
            null,
            null,
            1000);

    @Test
    void eventsCarryTheirWireTypeAndFields() {
        JsonNode json = wire.event(new AgentEnd("t1", true));
        assertThat(json.toString()).isEqualTo("{\"type\":\"agent_end\",\"turnId\":\"t1\",\"willRetry\":true}");
        JsonNode update = wire.event(new MessageUpdate("m1", "text", "Hel"));
        assertThat(update.get("type").asText()).isEqualTo("message_update");
        assertThat(update.get("delta").asText()).isEqualTo("Hel");
    }

    @Test
    void aFailedAssistantMessageIsWrittenWithRoleWireEnumsAndNoHelperProperties() {
        AssistantMessage failed = new AssistantMessage(
                "m1",
                List.of(new ContentBlock.Text("Hi")),
                "openai",
                "gpt",
                "openai-completions",
                "work",
                new Usage(3, 4, 0, 0),
                StopReason.ERROR,
                "503 Service Unavailable",
                null,
                new ProviderFailure(FailureKind.HTTP, 503, null, null, Map.of("retry-after", "2")),
                1000);
        JsonNode json = wire.event(new MessageEnd(failed)).get("message");
        assertThat(json.get("role").asText()).isEqualTo("assistant");
        assertThat(json.get("stopReason").asText()).isEqualTo("error");
        assertThat(json.get("failure").get("kind").asText()).isEqualTo("http");
        assertThat(json.get("content").get(0).get("type").asText()).isEqualTo("text");
        assertThat(json.has("error"))
                .as("isError() is a helper, not a property")
                .isFalse();
        assertThat(json.has("stopDetails")).as("nulls are left out").isFalse();
    }

    @Test
    void everyEventsTypeIsItsRegisteredWireNameAndItReadsBack() throws Exception {
        for (Class<?> type : dev.rebound.event.SessionEvent.class.getPermittedSubclasses()) {
            java.lang.reflect.RecordComponent[] components = type.getRecordComponents();
            Class<?>[] types = new Class<?>[components.length];
            Object[] args = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                args[i] = sample(types[i]);
            }
            dev.rebound.event.SessionEvent event = (dev.rebound.event.SessionEvent)
                    type.getDeclaredConstructor(types).newInstance(args);
            assertThat(event.type()).as(type.getSimpleName()).isEqualTo(WireJson.typeName(type));
            JsonNode json = wire.event(event);
            assertThat(json.get("type").asText()).isEqualTo(event.type());
            assertThat(wire.mapper().treeToValue(json, dev.rebound.event.SessionEvent.class))
                    .isEqualTo(event);
        }
    }

    private static Object sample(Class<?> type) {
        if (type == int.class) {
            return 2;
        } else if (type == long.class) {
            return 3L;
        } else if (type == boolean.class) {
            return true;
        } else if (type == String.class) {
            return "s";
        } else if (type == List.class) {
            return List.of();
        } else if (type == dev.rebound.transcript.ModelRef.class) {
            return new dev.rebound.transcript.ModelRef("p", "m");
        } else if (type.isEnum()) {
            return type.getEnumConstants()[0];
        } else if (type == dev.rebound.transcript.ChatMessage.class) {
            return new UserMessage("u", "hi", 1);
        }
        return null;
    }

    @Test
    void aRetryWithoutCredentialSaysCredentialNull() {
        JsonNode json = wire.event(new dev.rebound.event.AutoRetryStart(
                1, 10, 438, "529 Overloaded", dev.rebound.event.ErrorKind.TRANSIENT, "ollama/llama3.2", null, 1000));
        assertThat(json.has("credential")).isTrue();
        assertThat(json.get("credential").isNull()).isTrue();
        assertThat(json.get("errorKind").asText()).isEqualTo("transient");
    }

    @Test
    void aRetryAttemptWithoutCredentialStatusOrDelaySaysNull() {
        JsonNode json = wire.mapper()
                .valueToTree(new dev.rebound.event.RetryAttempt(
                        2, dev.rebound.event.ErrorKind.TRANSIENT, null, "ollama/llama3.2", null, null, "reset", null));
        for (String field : List.of("httpStatus", "credential", "delayMs", "decidedBy")) {
            assertThat(json.has(field)).as(field).isTrue();
            assertThat(json.get(field).isNull()).as(field).isTrue();
        }
    }

    @Test
    void messagesReadBackToEqualRecords() throws Exception {
        AssistantMessage original = new AssistantMessage(
                "m1",
                List.of(new ContentBlock.Thinking("hm", false), new ContentBlock.Text("Hi")),
                "openai",
                "gpt",
                "openai-completions",
                null,
                Usage.NONE,
                StopReason.STOP,
                null,
                null,
                null,
                1000);
        String text = wire.mapper().writeValueAsString(original);
        ChatMessage back = wire.mapper().readValue(text, ChatMessage.class);
        assertThat(back).isEqualTo(original);
    }

    @Test
    void preparedWritersAreTheOnesLaterMessagesAndEventsUse() {
        WireJson prepared = new WireJson();
        prepared.prepareWriters(true);
        int cached = cachedSerializers(prepared);
        assertThat(cached).isPositive();
        prepared.message(REPLY);
        prepared.message(new UserMessage("u1", "Hello", 1000));
        prepared.event(new MessageEnd(REPLY));
        prepared.event(new MessageUpdate("m1", "text", "Hel"));
        assertThat(cachedSerializers(prepared))
                .as("no serializer was built on first use")
                .isEqualTo(cached);
    }

    @Test
    void withoutEventsOnlyTheMessagesWritersAreBuilt() {
        WireJson messages = new WireJson();
        messages.prepareWriters(false);
        int cached = cachedSerializers(messages);
        messages.message(new UserMessage("u1", "Hello", 1000));
        assertThat(cachedSerializers(messages)).isEqualTo(cached);
        messages.event(new AgentEnd("t1", true));
        assertThat(cachedSerializers(messages)).isGreaterThan(cached);
    }

    private static int cachedSerializers(WireJson wire) {
        return ((com.fasterxml.jackson.databind.ser.DefaultSerializerProvider)
                        wire.mapper().getSerializerProviderInstance())
                .cachedSerializersCount();
    }

    @Test
    void writesWhilePreparingElsewhereGiveWhatAPreparedMapperGives() throws Exception {
        List<Object> values = List.of(
                REPLY,
                new UserMessage("u1", "Hello", 1000),
                new MessageEnd(REPLY),
                new MessageUpdate("m1", "text", "Hel"),
                new AgentEnd("t1", true),
                new dev.rebound.event.AutoRetryStart(
                        1, 10, 438, "529 Overloaded", dev.rebound.event.ErrorKind.TRANSIENT, "a/b", null, 1000));
        WireJson reference = new WireJson();
        reference.prepareWriters(true);
        List<String> expected = new ArrayList<>();
        for (Object value : values) {
            expected.add(reference.mapper().writeValueAsString(value));
        }
        expected.add(reference.message(REPLY).toString());
        expected.add(reference.event(new MessageEnd(REPLY)).toString());
        for (int round = 0; round < 20; round++) {
            WireJson shared = new WireJson();
            java.util.concurrent.atomic.AtomicReference<Throwable> failed =
                    new java.util.concurrent.atomic.AtomicReference<>();
            Thread preparing = Thread.ofPlatform().start(() -> {
                try {
                    shared.prepareWriters(true);
                } catch (Throwable e) {
                    failed.set(e);
                }
            });
            List<String> written = new ArrayList<>();
            for (Object value : values) {
                written.add(shared.mapper().writeValueAsString(value));
            }
            written.add(shared.message(REPLY).toString());
            written.add(shared.event(new MessageEnd(REPLY)).toString());
            assertThat(preparing.join(Duration.ofSeconds(20))).isTrue();
            assertThat(failed.get()).as("prepareWriters on the other thread").isNull();
            assertThat(written).as("round %d", round).isEqualTo(expected);
        }
    }
}
