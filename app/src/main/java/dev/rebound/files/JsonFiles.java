package dev.rebound.files;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/** Reads and writes the JSON object files of the config directory (settings.json, credentials.json). */
public final class JsonFiles {
    private static final Pattern UNQUOTED_WORD = Pattern.compile("Unrecognized token '[^']*'");
    private static final Pattern SOURCE_LOCATION = Pattern.compile("\\[Source: [^;]*; line: (\\d+), column: (\\d+)]");

    private JsonFiles() {}

    /** What reading a file gave. */
    public sealed interface Content {}

    /** The file does not exist. */
    public record Absent() implements Content {}

    /** The file holds a JSON object (an empty or blank file counts as an empty object). */
    public record Document(ObjectNode root) implements Content {}

    /**
     * The file is not valid JSON, or not UTF-8 text.
     *
     * @param line 1-based line of the error
     * @param column 1-based column (in characters) of the error
     * @param detail the parser's description; it may quote a piece of the file, so it must not be shown for a file
     *     that holds secrets
     */
    public record Malformed(int line, int column, String detail) implements Content {}

    /**
     * The file is valid JSON but its top level is not an object.
     *
     * @param found what it is instead ({@code an array}, {@code a string}...)
     */
    public record NotAnObject(int line, int column, String found) implements Content {}

    /** The file exists but could not be read (permissions, a directory in its place...). */
    public record Unreadable(String reason) implements Content {}

    /**
     * A config file that must hold a JSON object, as a store loads it: the object (empty when absent or unusable),
     * whether the file exists but could not be used (so it must not be overwritten silently), and the problem to
     * report.
     */
    public record ObjectLoad(ObjectNode root, boolean unusable, java.util.Optional<FileProblem> problem) {}

    /**
     * Reads a config file that must hold a JSON object.
     *
     * @param shape what the object looks like, for the message ({@code { ... }})
     * @param consequence what Rebound does about a bad file, appended to the message
     * @param quoteParserDetail whether the parser's own words may be shown; never for a file that holds secrets, since
     *     they can quote its content
     */
    public static ObjectLoad readObject(
            Path file, ObjectMapper mapper, String shape, String consequence, boolean quoteParserDetail) {
        return switch (read(file, mapper)) {
            case Absent ignored -> new ObjectLoad(mapper.createObjectNode(), false, java.util.Optional.empty());
            case Document d -> new ObjectLoad(d.root(), false, java.util.Optional.empty());
            case Malformed m ->
                unusable(
                        mapper,
                        file + " is not valid JSON at line " + m.line() + ", column " + m.column()
                                + (quoteParserDetail ? ": " + m.detail() : "") + ". " + consequence);
            case NotAnObject n ->
                unusable(
                        mapper,
                        file + " must hold a JSON object (" + shape + "), but at line " + n.line() + ", column "
                                + n.column() + " it holds " + n.found() + ". " + consequence);
            case Unreadable u -> unusable(mapper, "could not read " + file + " (" + u.reason() + "). " + consequence);
        };
    }

    private static ObjectLoad unusable(ObjectMapper mapper, String message) {
        return new ObjectLoad(mapper.createObjectNode(), true, java.util.Optional.of(FileProblem.error("", message)));
    }

    /** Reads a file that should hold a JSON object. Never throws for bad content or an unreadable file. */
    public static Content read(Path file, ObjectMapper mapper) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new Absent();
        } catch (IOException e) {
            return new Unreadable(e.toString());
        }
        CharBuffer text = CharBuffer.allocate(bytes.length);
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        CoderResult result = decoder.decode(ByteBuffer.wrap(bytes), text, true);
        if (result.isError()) {
            return notUtf8(text.flip());
        }
        decoder.flush(text);
        String json = text.flip().toString();
        if (json.startsWith("\uFEFF")) {
            json = json.substring(1);
        }
        if (json.isBlank()) {
            return new Document(mapper.createObjectNode());
        }
        return parse(json, mapper);
    }

    private static Content parse(String json, ObjectMapper mapper) {
        // Parser messages must not quote the file (it may hold keys): no source in locations.
        ObjectReader reader = mapper.reader().without(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION);
        try (JsonParser parser = reader.createParser(json)) {
            JsonToken first = parser.nextToken();
            JsonLocation start = parser.currentTokenLocation();
            JsonNode root = reader.readTree(parser);
            if (parser.nextToken() != null) {
                JsonLocation extra = parser.currentTokenLocation();
                return new Malformed(
                        extra.getLineNr(),
                        extra.getColumnNr(),
                        "unexpected content after the end of the top-level value");
            }
            if (first != JsonToken.START_OBJECT) {
                return new NotAnObject(start.getLineNr(), start.getColumnNr(), describeType(root));
            }
            return new Document((ObjectNode) root);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String detail = SOURCE_LOCATION.matcher(e.getOriginalMessage()).replaceAll("line $1, column $2");
            // A value left without quotes is quoted whole by the parser ("Unrecognized token 'abc123…'"), and in a
            // settings file that value is as likely as not a key or a secret header.
            detail = UNQUOTED_WORD.matcher(detail).replaceAll("A word without quotes (not shown: it may be a secret)");
            return new Malformed(at == null ? 1 : at.getLineNr(), at == null ? 1 : at.getColumnNr(), detail);
        } catch (IOException e) {
            return new Unreadable(e.toString());
        }
    }

    private static Malformed notUtf8(CharBuffer decodedPrefix) {
        int line = 1;
        int column = 1;
        while (decodedPrefix.hasRemaining()) {
            if (decodedPrefix.get() == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new Malformed(line, column, "the file is not UTF-8 text");
    }

    private static String describeType(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> "a " + node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    /** A document as written to disk: pretty-printed ({@code "key": value}, two-space indent), UTF-8, final newline. */
    public static byte[] prettyBytes(ObjectMapper mapper, JsonNode document) throws IOException {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator(""));
        printer.indentObjectsWith(indenter);
        printer.indentArraysWith(indenter);
        String text = mapper.writer(printer).writeValueAsString(document);
        return (text + "\n").getBytes(StandardCharsets.UTF_8);
    }
}
