package dev.rebound.files;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonFilesTest {
    private static final ObjectMapper MAPPER = Json.newMapper();

    @TempDir
    Path tmp;

    private JsonFiles.Content read(byte[] content) throws Exception {
        Path file = tmp.resolve("f.json");
        Files.write(file, content);
        return JsonFiles.read(file, MAPPER);
    }

    private JsonFiles.Content read(String content) throws Exception {
        return read(content.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aMissingFileIsAbsent() {
        assertThat(JsonFiles.read(tmp.resolve("nope.json"), MAPPER)).isInstanceOf(JsonFiles.Absent.class);
    }

    @Test
    void aBlankFileIsAnEmptyDocument() throws Exception {
        assertThat(read(" \n")).isEqualTo(new JsonFiles.Document(MAPPER.createObjectNode()));
    }

    @Test
    void aByteOrderMarkIsSkipped() throws Exception {
        assertThat(read("\uFEFF{\"a\": 1}"))
                .isInstanceOfSatisfying(
                        JsonFiles.Document.class,
                        d -> assertThat(d.root().get("a").intValue()).isEqualTo(1));
    }

    @Test
    void columnsCountCharactersNotBytes() throws Exception {
        assertThat(read("{\"ä\": \"é\" x}")).isInstanceOfSatisfying(JsonFiles.Malformed.class, m -> {
            assertThat(m.line()).isEqualTo(1);
            assertThat(m.column()).isEqualTo(11);
        });
    }

    @Test
    void contentAfterTheTopLevelValueIsMalformed() throws Exception {
        assertThat(read("{}\n {}")).isInstanceOfSatisfying(JsonFiles.Malformed.class, m -> {
            assertThat(m.line()).isEqualTo(2);
            assertThat(m.column()).isEqualTo(2);
        });
    }

    @Test
    void duplicateKeysAreMalformed() throws Exception {
        assertThat(read("{\"a\": 1,\n \"a\": 2}"))
                .isInstanceOfSatisfying(
                        JsonFiles.Malformed.class, m -> assertThat(m.detail()).contains("Duplicate field 'a'"));
    }

    @Test
    void theParserDescriptionDoesNotQuoteTheFile() throws Exception {
        assertThat(read("{\"apiKey\": \"sk-canary-123\""))
                .isInstanceOfSatisfying(
                        JsonFiles.Malformed.class,
                        m -> assertThat(m.detail()).doesNotContain("sk-canary").contains("line 1, column 1"));
    }

    @Test
    void aValueLeftWithoutQuotesIsNotQuotedInTheDescription() throws Exception {
        assertThat(read("{\"headers\": {\"api-key\": azure0b1e4f2d6a8c9d7e3f5a}}"))
                .isInstanceOfSatisfying(JsonFiles.Malformed.class, m -> {
                    assertThat(m.line()).isEqualTo(1);
                    assertThat(m.detail())
                            .doesNotContain("azure0b1e")
                            .startsWith("A word without quotes (not shown: it may be a secret): was expecting");
                });
    }

    @Test
    void bytesThatAreNotUtf8AreMalformedAtTheirPlace() throws Exception {
        byte[] content = {'{', '\n', ' ', '"', 'a', '"', ':', ' ', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};

        assertThat(read(content)).isEqualTo(new JsonFiles.Malformed(2, 8, "the file is not UTF-8 text"));
    }

    @Test
    void aTopLevelValueThatIsNotAnObjectSaysWhatItIs() throws Exception {
        assertThat(read("\n\"text\"")).isEqualTo(new JsonFiles.NotAnObject(2, 1, "a string"));
    }

    @Test
    void aDirectoryInPlaceOfTheFileIsUnreadable() throws Exception {
        Files.createDirectory(tmp.resolve("dir.json"));

        assertThat(JsonFiles.read(tmp.resolve("dir.json"), MAPPER)).isInstanceOf(JsonFiles.Unreadable.class);
    }
}
