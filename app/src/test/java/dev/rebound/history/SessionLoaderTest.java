package dev.rebound.history;

import static dev.rebound.history.JournalFixtures.T0;
import static dev.rebound.history.JournalFixtures.reply;
import static dev.rebound.history.JournalFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.files.FileProblem;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionLoaderTest {
    private final JournalCodec codec = new JournalCodec(new dev.rebound.json.WireJson());
    private final SessionLoader loader = new SessionLoader(codec);

    @TempDir
    Path dir;

    @Test
    void everyEntryTypeWrittenByTheJournalLoadsEqualToTheOriginals() throws Exception {
        List<JournalEntry> entries = JournalFixtures.everyType();
        Path file;
        try (SessionJournal journal = SessionJournal.create(dir, "s1", T0 - 5, "First title")) {
            file = journal.file();
            for (JournalEntry entry : entries) {
                journal.append(entry);
            }
        }
        LoadedSession loaded = loader.load(file);
        assertThat(loaded.problems()).isEmpty();
        assertThat(loaded.header()).isEqualTo(new SessionHeader(1, "s1", T0 - 5, "First title"));
        assertThat(loaded.entries()).containsExactlyElementsOf(entries);
        assertThat(loaded.title())
                .as("the latest title entry wins over the header")
                .isEqualTo("JSON Lines explained");
        assertThat(loaded.retriedMessageIds())
                .as("a1 was marked retried, then un-marked")
                .isEmpty();
    }

    @Test
    void aLastLineCutShortByACrashIsSkippedWithItsLineNamedAndEveryCompleteEntryIsKept() throws Exception {
        List<JournalEntry> complete = List.of(
                MessageEntry.of(user("u1", "hi", T0)),
                MessageEntry.of(reply("a1", "hello", T0 + 1)),
                MessageEntry.of(user("u2", "more", T0 + 2)));
        byte[] next = codec.encode(MessageEntry.of(reply("a2", "cut inside 🎉 the emoji", T0 + 3)));
        String text = new String(next, StandardCharsets.UTF_8);
        int insideEmoji = text.substring(0, text.indexOf("🎉")).getBytes(StandardCharsets.UTF_8).length + 2;
        Path file = write("s1", header("s1"), lines(complete), Arrays.copyOf(next, insideEmoji));
        byte[] before = Files.readAllBytes(file);

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.entries()).containsExactlyElementsOf(complete);
        assertThat(loaded.problems())
                .extracting(FileProblem::describe)
                .containsExactly(file + ": line 5 is not "
                        + "a complete entry (the app may have stopped while writing it); it was skipped");
        assertThat(loaded.problems()).allMatch(p -> !p.isError());
        assertThat(Files.readAllBytes(file))
                .as("loading never repairs the file")
                .isEqualTo(before);
    }

    @Test
    void aGarbageLineInTheMiddleIsSkippedWithItsLineNamedAndTheEntriesAroundItAreKept() throws Exception {
        List<JournalEntry> entries = List.of(
                MessageEntry.of(user("u1", "hi", T0)),
                MessageEntry.of(reply("a1", "hello", T0 + 1)),
                new NoticeEntry("n1", T0 + 2, "info", "ok"),
                MessageEntry.of(user("u2", "more", T0 + 3)));
        Path file = write(
                "s1",
                header("s1"),
                lines(entries.subList(0, 2)),
                "\u0000\u00ffnot json at all {\n".getBytes(StandardCharsets.ISO_8859_1),
                "{\"type\":\"notice\",\"id\":\"n0\",\"ts\":5}\n".getBytes(StandardCharsets.UTF_8),
                lines(entries.subList(2, 4)));
        FileTime modified = Files.getLastModifiedTime(file);
        byte[] before = Files.readAllBytes(file);

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.entries()).containsExactlyElementsOf(entries);
        assertThat(loaded.problems())
                .extracting(FileProblem::message)
                .containsExactly(
                        "line 4 is not a valid entry (it is not valid JSON); it was skipped",
                        "line 5 is not a valid entry (its level is missing or not a string); it was skipped");
        assertThat(loaded.problems()).allMatch(p -> p.keyPath().equals(file.toString()));
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(modified);
    }

    @Test
    void aSecondEntryWithAnIdAlreadySeenIsSkippedSoNothingIsLoadedTwice() throws Exception {
        JournalEntry message = MessageEntry.of(user("u1", "hi", T0));
        JournalEntry title = new TitleEntry("t1", T0 + 1, "Greeting");
        Path file = write(
                "s1", header("s1"), lines(List.of(message, title, message, new TitleEntry("t1", T0 + 2, "Other"))));

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.entries()).containsExactly(message, title);
        assertThat(loaded.title()).isEqualTo("Greeting");
        assertThat(loaded.problems())
                .extracting(FileProblem::message)
                .containsExactly(
                        "line 4 has the same id as line 2; it was skipped",
                        "line 5 has the same id as line 3; it was skipped");
    }

    @Test
    void entriesOfAFutureTypeAreKeptAsRawJsonWithoutAProblem() throws Exception {
        JournalEntry before = MessageEntry.of(user("u1", "hi", T0));
        JournalEntry after = MessageEntry.of(reply("a1", "hello", T0 + 2));
        String future = "{\"type\":\"branch_point\",\"id\":\"b1\",\"ts\":" + (T0 + 1) + ",\"parent\":\"u1\"}";
        Path file = write(
                "s1",
                header("s1"),
                lines(List.of(before)),
                (future + "\n").getBytes(StandardCharsets.UTF_8),
                lines(List.of(after)));

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.problems()).isEmpty();
        assertThat(loaded.entries()).hasSize(3);
        assertThat(loaded.entries().get(1)).isInstanceOfSatisfying(UnknownEntry.class, unknown -> {
            assertThat(unknown.type()).isEqualTo("branch_point");
            assertThat(unknown.json().get("parent").asText()).isEqualTo("u1");
        });
        assertThat(List.of(loaded.entries().getFirst(), loaded.entries().getLast()))
                .containsExactly(before, after);
    }

    @Test
    void aFileOfANewerFormatVersionLoadsWhatItCanWithAWarning() throws Exception {
        Path file = write(
                "s1",
                "{\"type\":\"session\",\"version\":2,\"id\":\"s1\",\"created\":1,\"title\":\"T\"}\n"
                        .getBytes(StandardCharsets.UTF_8),
                lines(List.of(MessageEntry.of(user("u1", "hi", T0)))));

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.header()).isEqualTo(new SessionHeader(2, "s1", 1, "T"));
        assertThat(loaded.entries()).hasSize(1);
        assertThat(loaded.problems())
                .extracting(FileProblem::message)
                .singleElement()
                .asString()
                .contains("newer Rebound (format version 2)");
    }

    @Test
    void aMissingHeaderTakesTheSessionIdFromTheFileNameAndKeepsTheFirstEntry() throws Exception {
        JournalEntry first = MessageEntry.of(user("u1", "hi", T0));
        Path file = write("from-name", lines(List.of(first)));

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.header()).isEqualTo(SessionHeader.of("from-name", T0, null));
        assertThat(loaded.entries()).containsExactly(first);
        assertThat(loaded.problems())
                .extracting(FileProblem::message)
                .containsExactly(
                        "line 1 is an entry, not a session header; the session id was taken from the file name");
    }

    @Test
    void aBrokenHeaderTakesTheSessionIdFromTheFileName() throws Exception {
        JournalEntry first = MessageEntry.of(user("u1", "hi", T0));
        Path file = write(
                "from-name",
                "{\"type\":\"session\",\"version\":1,\"id\":\"x\",\"crea\n".getBytes(StandardCharsets.UTF_8),
                lines(List.of(first)));

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.header().id()).isEqualTo("from-name");
        assertThat(loaded.entries()).containsExactly(first);
        assertThat(loaded.problems())
                .extracting(FileProblem::message)
                .containsExactly(
                        "line 1 is not a valid "
                                + "session header (it ends before its JSON is complete); the session id was taken from the file name");
    }

    @Test
    void aHeaderNamingAnotherSessionLosesToTheFileName() throws Exception {
        Path file = write("copy", header("original"));

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.header().id()).isEqualTo("copy");
        assertThat(loaded.problems())
                .singleElement()
                .extracting(FileProblem::message)
                .asString()
                .contains("the file name's id 'copy'");
    }

    @Test
    void anEmptyFileLoadsAsAnEmptySessionWithAWarning() throws Exception {
        Path file = write("empty");

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.header().id()).isEqualTo("empty");
        assertThat(loaded.entries()).isEmpty();
        assertThat(loaded.problems())
                .extracting(FileProblem::message)
                .containsExactly("the file is empty; the session id was taken from the file name");
    }

    @Test
    void aFileSavedByAWindowsEditorWithAByteOrderMarkAndCrlfLoadsCleanly() throws Exception {
        JournalEntry entry = new NoticeEntry("n1", T0, "info", "hello");
        String crlf = (new String(header("s1"), StandardCharsets.UTF_8)
                        + new String(lines(List.of(entry)), StandardCharsets.UTF_8) + "\n")
                .replace("\n", "\r\n");
        Path file =
                write("s1", new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, crlf.getBytes(StandardCharsets.UTF_8));

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.problems()).isEmpty();
        assertThat(loaded.header().id()).isEqualTo("s1");
        assertThat(loaded.entries()).containsExactly(entry);
    }

    @Test
    void aLineLongerThanTheReadBufferLoadsWhole() throws Exception {
        JournalEntry big = MessageEntry.of(reply("a1", "x".repeat(300_000), T0));
        Path file = write("s1", header("s1"), lines(List.of(big, new TitleEntry("t", T0 + 1, "after"))));

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.problems()).isEmpty();
        assertThat(loaded.entries()).first().isEqualTo(big);
        assertThat(loaded.title()).isEqualTo("after");
    }

    @Test
    void anEntryWithAByteThatIsNotUtf8IsKeptWithAReplacementCharacterAndANotice() throws Exception {
        byte[] line = codec.encode(MessageEntry.of(user("u1", "caf\u00e9 au lait", T0)));
        byte[] damaged = line.clone();
        String text = new String(line, StandardCharsets.UTF_8);
        int at = new String(line, StandardCharsets.ISO_8859_1).indexOf("caf") + 3;
        damaged[at] = (byte) 0xFF;
        assertThat(text).contains("café");
        Path file = write(
                "bad-byte", header("bad-byte"), damaged, lines(List.of(MessageEntry.of(reply("a1", "hello", T0 + 1)))));
        byte[] before = Files.readAllBytes(file);

        LoadedSession loaded = loader.load(file);

        assertThat(loaded.entries()).hasSize(2);
        assertThat(((MessageEntry) loaded.entries().getFirst()).message())
                .isInstanceOfSatisfying(
                        dev.rebound.transcript.UserMessage.class,
                        m -> assertThat(m.text()).startsWith("caf\uFFFD"));
        assertThat(loaded.problems())
                .singleElement()
                .extracting(FileProblem::describe)
                .asString()
                .contains("line 2")
                .contains("not UTF-8");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    private byte[] header(String id) {
        return codec.encodeHeader(SessionHeader.of(id, T0 - 1, null));
    }

    private byte[] lines(List<JournalEntry> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        entries.forEach(entry -> out.writeBytes(codec.encode(entry)));
        return out.toByteArray();
    }

    private Path write(String id, byte[]... parts) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return Files.write(dir.resolve(id + ".jsonl"), out.toByteArray());
    }
}
