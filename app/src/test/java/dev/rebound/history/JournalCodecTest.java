package dev.rebound.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.json.WireJson;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JournalCodecTest {
    private final WireJson wire = new WireJson();
    private final JournalCodec codec = new JournalCodec(wire);
    private final ObjectMapper mapper = wire.mapper();

    @Test
    void everyEntryTypeIsOneLineThatDecodesToAnEqualEntry() {
        for (JournalEntry entry : JournalFixtures.everyType()) {
            byte[] line = codec.encode(entry);
            assertThat(line[line.length - 1]).isEqualTo((byte) '\n');
            assertThat(new String(line, 0, line.length - 1, StandardCharsets.UTF_8))
                    .doesNotContain("\n");
            assertThat(codec.decode(line, 0, line.length - 1)).isEqualTo(new JournalCodec.EntryLine(entry));
        }
    }

    @Test
    void entriesAreWrittenWithTypeIdAndTsFirstAndMessagesInTheirWireForm() throws Exception {
        JsonNode message = json(codec.encode(JournalFixtures.everyType().get(1)));
        assertThat(message.fieldNames()).toIterable().startsWith("type", "id", "ts", "message");
        assertThat(message.get("type").asText()).isEqualTo("message");
        assertThat(message.get("message").toString())
                .isEqualTo(wire.message(JournalFixtures.failed("a1", JournalFixtures.T0 + 10))
                        .toString());
        assertThat(message.at("/message/role").asText()).isEqualTo("assistant");
        assertThat(message.at("/message/failure/kind").asText()).isEqualTo("http");

        JsonNode change = json(codec.encode(JournalFixtures.everyType().get(7)));
        assertThat(change.toString())
                .isEqualTo("{\"type\":\"model_change\",\"id\":\"c2\",\"ts\":"
                        + (JournalFixtures.T0 + 23)
                        + ",\"from\":null,\"to\":{\"provider\":\"openai\",\"id\":\"gpt-4.1-mini\"},"
                        + "\"role\":\"user\",\"reason\":\"user\"}");
        JsonNode mark = json(codec.encode(new RetriedMark("r9", 5, "a1", true)));
        assertThat(mark.toString())
                .isEqualTo("{\"type\":\"retried\",\"id\":\"r9\",\"ts\":5,\"messageId\":\"a1\",\"retried\":true}");
    }

    @Test
    void textOutsideAsciiIsWrittenAsPlainUtf8() {
        byte[] line = codec.encode(new TitleEntry("t", 1, "Café 🎉"));
        assertThat(new String(line, StandardCharsets.UTF_8)).contains("\"title\":\"Café 🎉\"");
    }

    @Test
    void theHeaderWritesAMissingTitleAsNullAndReadsBack() throws Exception {
        SessionHeader header = SessionHeader.of("s1", 42, null);
        byte[] line = codec.encodeHeader(header);
        assertThat(new String(line, StandardCharsets.UTF_8))
                .isEqualTo("{\"type\":\"session\",\"version\":1,\"id\":\"s1\",\"created\":42,\"title\":null}\n");
        assertThat(codec.decode(line, 0, line.length - 1)).isEqualTo(new JournalCodec.HeaderLine(header));
    }

    @Test
    void anEntryOfAnUnknownTypeIsKeptAsItsRawJsonAndWrittenBackUnchanged() {
        String future = "{\"type\":\"branch\",\"id\":\"b1\",\"ts\":7,\"parent\":\"a1\",\"nested\":{\"x\":[1,2]}}";
        byte[] bytes = future.getBytes(StandardCharsets.UTF_8);
        JournalCodec.Line line = codec.decode(bytes, 0, bytes.length);
        assertThat(line).isInstanceOf(JournalCodec.EntryLine.class);
        UnknownEntry unknown = (UnknownEntry) ((JournalCodec.EntryLine) line).entry();
        assertThat(unknown.type()).isEqualTo("branch");
        assertThat(unknown.id()).isEqualTo("b1");
        assertThat(unknown.ts()).isEqualTo(7);
        assertThat(new String(codec.encode(unknown), StandardCharsets.UTF_8)).isEqualTo(future + "\n");
    }

    @Test
    void badLinesAreReportedWithoutQuotingThemAndACutLineIsRecognised() {
        assertThat(decode("{\"type\":\"notice\",\"id\":\"n1\",\"ts\":1,\"level\":\"info\",\"mess"))
                .isEqualTo(new JournalCodec.BadLine("it ends before its JSON is complete", true));
        assertThat(decode("secret-ish garbage")).isEqualTo(new JournalCodec.BadLine("it is not valid JSON", false));
        assertThat(decode("[1,2]")).isEqualTo(new JournalCodec.BadLine("it is not a JSON object", false));
        assertThat(decode("{\"type\":\"retried\",\"id\":\"r\",\"ts\":1,\"messageId\":\"a\",\"retried\":\"yes\"}"))
                .isEqualTo(new JournalCodec.BadLine("its retried is missing or not true or false", false));
        assertThat(decode("{\"type\":\"title\",\"id\":\"\",\"ts\":1,\"title\":\"x\"}"))
                .isEqualTo(new JournalCodec.BadLine("its id is blank", false));
        assertThat(decode("{\"type\":\"title\",\"id\":\"t\",\"ts\":1.5,\"title\":\"x\"}"))
                .isEqualTo(new JournalCodec.BadLine("its ts is missing or not a whole number", false));
        assertThat(decode("{\"type\":\"message\",\"id\":\"m\",\"ts\":1,\"message\":{\"role\":\"robot\"}}"))
                .isEqualTo(new JournalCodec.BadLine("its message is not a ChatMessage this version can read", false));
    }

    @Test
    void entriesCarryCredentialLabelsOnlyNeverAKeyType() {
        Set<Type> reachable = new HashSet<>();
        Deque<Type> toVisit = new ArrayDeque<>();
        for (Class<?> entryType : JournalEntry.class.getPermittedSubclasses()) {
            toVisit.push(entryType);
        }
        toVisit.push(dev.rebound.transcript.UserMessage.class);
        toVisit.push(dev.rebound.transcript.AssistantMessage.class);
        for (Class<?> block : dev.rebound.transcript.ContentBlock.class.getPermittedSubclasses()) {
            toVisit.push(block);
        }
        while (!toVisit.isEmpty()) {
            Type type = toVisit.pop();
            if (!reachable.add(type)) {
                continue;
            }
            if (type instanceof ParameterizedType parameterized) {
                for (Type argument : parameterized.getActualTypeArguments()) {
                    toVisit.push(argument);
                }
            } else if (type instanceof Class<?> c && c.isRecord()) {
                for (RecordComponent component : c.getRecordComponents()) {
                    toVisit.push(component.getGenericType());
                }
            }
        }
        assertThat(reachable)
                .as("types an entry can hold")
                .contains(String.class, ObjectNode.class)
                .noneMatch(type -> type.getTypeName().startsWith("dev.rebound.auth."));
    }

    @Test
    void aCredentialLabelIsWrittenAsGiven() throws Exception {
        String canary = "label-CANARY-7f3e";
        var message = new dev.rebound.transcript.AssistantMessage(
                "a",
                java.util.List.of(),
                "openai",
                "m",
                "openai-completions",
                canary,
                null,
                dev.rebound.transcript.StopReason.STOP,
                null,
                null,
                null,
                1);
        JsonNode json = json(codec.encode(MessageEntry.of(message)));
        assertThat(json.at("/message/credential").asText()).isEqualTo(canary);
    }

    private JournalCodec.Line decode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return codec.decode(bytes, 0, bytes.length);
    }

    private JsonNode json(byte[] line) throws Exception {
        return mapper.readTree(line);
    }
}
