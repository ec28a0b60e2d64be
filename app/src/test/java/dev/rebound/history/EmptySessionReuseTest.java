package dev.rebound.history;

import static dev.rebound.history.JournalFixtures.T0;
import static dev.rebound.history.JournalFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.json.WireJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reopening a chat file only when it holds nothing but its header. */
class EmptySessionReuseTest {
    private final JournalCodec codec = new JournalCodec(new WireJson());

    @TempDir
    Path dir;

    @Test
    void aFileHoldingOnlyItsHeaderIsReopenedAndTheNextEntryFollowsTheHeader() throws Exception {
        Path file;
        try (SessionJournal created = SessionJournal.create(dir, "s1", 42, null, codec)) {
            file = created.file();
        }

        Optional<SessionJournal.Reopened> reopened = SessionJournal.reopenEmpty(file, codec);

        assertThat(reopened).isPresent();
        assertThat(reopened.get().header()).isEqualTo(SessionHeader.of("s1", 42, null));
        try (SessionJournal journal = reopened.get().journal()) {
            assertThat(journal.file()).isEqualTo(file);
            journal.append(MessageEntry.of(user("u1", "hi", T0)));
        }
        LoadedSession loaded = new SessionLoader(codec).load(file);
        assertThat(loaded.problems()).isEmpty();
        assertThat(loaded.entries()).hasSize(1);
    }

    @Test
    void aFileWithAnEntryIsNotReopenedAndIsLeftAsItIs() throws Exception {
        Path file;
        try (SessionJournal journal = SessionJournal.create(dir, "s1", 42, null, codec)) {
            journal.append(MessageEntry.of(user("u1", "hi", T0)));
            file = journal.file();
        }
        byte[] before = Files.readAllBytes(file);

        assertThat(SessionJournal.reopenEmpty(file, codec)).isEmpty();
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        try (SessionJournal again = SessionJournal.openForAppend(file, codec)) {
            assertThat(again.file()).as("the lock taken to look was released").isEqualTo(file);
        }
    }

    @Test
    void aHeaderWithATitleACutHeaderAnotherSessionsHeaderAndANewerFormatAreNotReused() throws Exception {
        String header = "{\"type\":\"session\",\"version\":1,\"id\":\"%s\",\"created\":1,\"title\":%s}";
        Path titled = write("t.jsonl", header.formatted("t", "\"Plans\"") + "\n", 1);
        Path cut = write("c.jsonl", header.formatted("c", "null"), 1);
        Path half = write("h.jsonl", "{\"type\":\"session\",\"vers", 1);
        Path other = write("o.jsonl", header.formatted("someone-else", "null") + "\n", 1);
        Path blank = write("b.jsonl", "", 1);
        Path twoLines = write("l.jsonl", header.formatted("l", "null") + "\n\n", 1);
        Path notJson = write("n.jsonl", "hello\n", 1);
        Path newer =
                write("v.jsonl", "{\"type\":\"session\",\"version\":2,\"id\":\"v\",\"created\":1,\"title\":null}\n", 1);

        for (Path file : new Path[] {titled, cut, half, other, blank, twoLines, notJson, newer}) {
            assertThat(SessionJournal.reopenEmpty(file, codec))
                    .as(file.getFileName().toString())
                    .isEmpty();
        }
    }

    @Test
    void aFileLargerThanAHeaderCanBeIsNotRead() throws Exception {
        String big = "{\"type\":\"session\",\"version\":1,\"id\":\"big\",\"created\":1,\"title\":null,\"pad\":\""
                + "x".repeat(70_000) + "\"}\n";
        Path file = write("big.jsonl", big, 1);

        assertThat(SessionJournal.reopenEmpty(file, codec)).isEmpty();
    }

    @Test
    void anEmptyChatOpenElsewhereIsNotReopened() throws Exception {
        try (SessionJournal open = SessionJournal.create(dir, "s1", 42, null, codec)) {
            assertThat(SessionJournal.reopenEmpty(open.file(), codec)).isEmpty();
        }
    }

    @Test
    void aMissingFileIsNotReopened() throws Exception {
        assertThat(SessionJournal.reopenEmpty(dir.resolve("gone.jsonl"), codec)).isEmpty();
    }

    private Path write(String name, String text, long modifiedMs) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochMilli(modifiedMs)));
        return file;
    }
}
