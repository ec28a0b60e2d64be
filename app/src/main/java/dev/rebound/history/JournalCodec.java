package dev.rebound.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.json.WireJson;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * The JSON Lines form of a session file: one JSON object per line, {@code type} first. Messages and retry chains are
 * written in their wire form ({@link WireJson}), as RPC mode sends them. Thread-safe.
 *
 * <p>Decoding never throws for bad content: a line is a {@link HeaderLine}, an {@link EntryLine} (an entry of a type
 * this version does not know becomes an {@link UnknownEntry}), or a {@link BadLine} whose reason never quotes the line.
 */
public final class JournalCodec {
    /** The {@code type} of the header line. */
    public static final String HEADER_TYPE = "session";

    private final ObjectMapper mapper;
    /** Writes characters outside the BMP (emoji) as UTF-8 rather than as escaped surrogate pairs: readable files. */
    private final ObjectWriter writer;

    /** A codec using the wire mapper. */
    public JournalCodec(WireJson wire) {
        this.mapper = Objects.requireNonNull(wire, "wire").mapper();
        this.writer = mapper.writer().with(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8);
    }

    /** What one line holds. */
    public sealed interface Line permits HeaderLine, EntryLine, BadLine {}

    /** A session header. */
    public record HeaderLine(SessionHeader header) implements Line {}

    /** An entry. */
    public record EntryLine(JournalEntry entry) implements Line {}

    /**
     * A line that is not an entry.
     *
     * @param reason why, for a person; never quotes the line
     * @param incomplete the JSON ends early, as a line cut short by a crash does
     */
    public record BadLine(String reason, boolean incomplete) implements Line {}

    /** The header as one line, ending with {@code \n}. */
    public byte[] encodeHeader(SessionHeader header) {
        ObjectNode node = mapper.createObjectNode();
        node.put("type", HEADER_TYPE);
        node.put("version", header.version());
        node.put("id", header.id());
        node.put("created", header.created());
        if (header.title() == null) {
            node.putNull("title");
        } else {
            node.put("title", header.title());
        }
        return line(node);
    }

    /** An entry as one line, ending with {@code \n}. */
    public byte[] encode(JournalEntry entry) {
        ObjectNode node = mapper.createObjectNode();
        node.put("type", entry.type());
        node.put("id", entry.id());
        node.put("ts", entry.ts());
        switch (entry) {
            case MessageEntry m -> node.set("message", mapper.valueToTree(m.message()));
            case RetriedMark r -> node.put("messageId", r.messageId()).put("retried", r.retried());
            case ModelChangeEntry c -> {
                node.set("from", c.from() == null ? node.nullNode() : mapper.valueToTree(c.from()));
                node.set("to", mapper.valueToTree(c.to()));
                node.put("role", c.role()).put("reason", c.reason());
            }
            case RetryChainEntry r -> node.set("chain", mapper.valueToTree(r.chain()));
            case NoticeEntry n -> node.put("level", n.level()).put("message", n.message());
            case TitleEntry t -> node.put("title", t.title());
            case DamageNote d -> d.lines().forEach(node.putArray("lines")::add);
            case RewindEntry r -> node.put("replaces", r.replaces()).put("reason", r.reason());
            case SystemPromptEntry p -> node.put("prompt", p.prompt());
            case UnknownEntry u -> node.setAll(u.json());
        }
        return line(node);
    }

    private byte[] line(ObjectNode node) {
        try {
            byte[] json = writer.writeValueAsBytes(node);
            byte[] line = new byte[json.length + 1];
            System.arraycopy(json, 0, line, 0, json.length);
            line[json.length] = '\n';
            return line;
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("a journal entry could not be written as JSON", e);
        }
    }

    /** Decodes one line (without its {@code \n}). */
    public Line decode(byte[] bytes, int offset, int length) {
        JsonNode node;
        try {
            node = mapper.readTree(bytes, offset, length);
        } catch (JsonEOFException e) {
            return new BadLine("it ends before its JSON is complete", true);
        } catch (IOException e) {
            return new BadLine("it is not valid JSON", false);
        }
        if (node == null || !node.isObject()) {
            return new BadLine("it is not a JSON object", false);
        }
        try {
            return decode((ObjectNode) node);
        } catch (InvalidLine e) {
            return new BadLine(e.getMessage(), false);
        }
    }

    private Line decode(ObjectNode node) throws InvalidLine {
        String type = text(node, "type");
        if (HEADER_TYPE.equals(type)) {
            return new HeaderLine(header(node));
        }
        String id = text(node, "id");
        if (id.isBlank()) {
            throw new InvalidLine("its id is blank");
        }
        long ts = integer(node, "ts");
        JournalEntry entry = switch (type) {
            case MessageEntry.TYPE -> new MessageEntry(id, ts, value(node, "message", ChatMessage.class));
            case RetriedMark.TYPE -> new RetriedMark(id, ts, text(node, "messageId"), bool(node, "retried"));
            case ModelChangeEntry.TYPE ->
                new ModelChangeEntry(
                        id,
                        ts,
                        optionalValue(node, "from", ModelRef.class),
                        value(node, "to", ModelRef.class),
                        text(node, "role"),
                        text(node, "reason"));
            case RetryChainEntry.TYPE -> new RetryChainEntry(id, ts, value(node, "chain", RetryChainEnd.class));
            case NoticeEntry.TYPE -> new NoticeEntry(id, ts, text(node, "level"), text(node, "message"));
            case TitleEntry.TYPE -> new TitleEntry(id, ts, text(node, "title"));
            case DamageNote.TYPE -> new DamageNote(id, ts, lineNumbers(node));
            case RewindEntry.TYPE -> new RewindEntry(id, ts, text(node, "replaces"), text(node, "reason"));
            case SystemPromptEntry.TYPE -> new SystemPromptEntry(id, ts, optionalText(node, "prompt"));
            default -> new UnknownEntry(id, ts, type, node);
        };
        return new EntryLine(entry);
    }

    private static List<Long> lineNumbers(ObjectNode node) throws InvalidLine {
        JsonNode lines = node.get("lines");
        if (lines == null || !lines.isArray()) {
            throw new InvalidLine("its lines are not an array of line numbers");
        }
        List<Long> numbers = new java.util.ArrayList<>();
        for (JsonNode line : lines) {
            if (!line.canConvertToExactIntegral() || line.asLong() < 1) {
                throw new InvalidLine("its lines are not an array of line numbers");
            }
            numbers.add(line.asLong());
        }
        return numbers;
    }

    private static SessionHeader header(ObjectNode node) throws InvalidLine {
        long version = integer(node, "version");
        if (version < 1 || version > Integer.MAX_VALUE) {
            throw new InvalidLine("its format version is not a positive whole number");
        }
        JsonNode title = node.get("title");
        if (title != null && !title.isNull() && !title.isTextual()) {
            throw new InvalidLine("its title is not a string");
        }
        return new SessionHeader(
                (int) version,
                text(node, "id"),
                integer(node, "created"),
                title == null || title.isNull() ? null : title.textValue());
    }

    private static String text(ObjectNode node, String field) throws InvalidLine {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new InvalidLine("its " + field + " is missing or not a string");
        }
        return value.textValue();
    }

    private static String optionalText(ObjectNode node, String field) throws InvalidLine {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new InvalidLine("its " + field + " is not a string");
        }
        return value.textValue();
    }

    private static long integer(ObjectNode node, String field) throws InvalidLine {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new InvalidLine("its " + field + " is missing or not a whole number");
        }
        return value.longValue();
    }

    private static boolean bool(ObjectNode node, String field) throws InvalidLine {
        JsonNode value = node.get(field);
        if (value == null || !value.isBoolean()) {
            throw new InvalidLine("its " + field + " is missing or not true or false");
        }
        return value.booleanValue();
    }

    private <T> T value(ObjectNode node, String field, Class<T> type) throws InvalidLine {
        T value = optionalValue(node, field, type);
        if (value == null) {
            throw new InvalidLine("its " + field + " is missing");
        }
        return value;
    }

    private <T> T optionalValue(ObjectNode node, String field, Class<T> type) throws InvalidLine {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        try {
            return mapper.treeToValue(value, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidLine("its " + field + " is not a " + type.getSimpleName() + " this version can read");
        }
    }

    /** A line that is JSON but not a valid header or entry; the message never quotes the line. */
    private static final class InvalidLine extends Exception {
        InvalidLine(String message) {
            super(message, null, false, false);
        }
    }
}
