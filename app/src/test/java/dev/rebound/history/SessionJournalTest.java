package dev.rebound.history;

import static dev.rebound.history.JournalFixtures.T0;
import static dev.rebound.history.JournalFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.rebound.files.FileProblem;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionJournalTest {
    private final SessionLoader loader = new SessionLoader();

    @TempDir
    Path dir;

    @Test
    void aNewSessionFileStartsWithItsHeaderLine() throws Exception {
        Path sessions = dir.resolve("sessions");
        try (SessionJournal journal = SessionJournal.create(sessions, "abc-123", 42, "Plans")) {
            assertThat(journal.file())
                    .isEqualTo(sessions.resolve("abc-123.jsonl").toAbsolutePath());
            assertThat(Files.readString(journal.file()))
                    .isEqualTo(
                            "{\"type\":\"session\",\"version\":1,\"id\":\"abc-123\",\"created\":42,\"title\":\"Plans\"}\n");
        }
    }

    @Test
    void theDirectoryAndTheFileAreOwnerOnly() throws Exception {
        assumeThat(dir.getFileSystem().supportedFileAttributeViews()).contains("posix");
        Path sessions = dir.resolve("sessions");
        try (SessionJournal journal = SessionJournal.create(sessions, "s1", 1, null)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(sessions)))
                    .isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal.file())))
                    .isEqualTo("rw-------");
        }
    }

    @Test
    void creatingASessionThatExistsFailsAndLeavesItsFileAlone() throws Exception {
        Path file;
        try (SessionJournal journal = SessionJournal.create(dir, "s1", 1, "Original")) {
            journal.append(MessageEntry.of(user("u1", "hi", T0)));
            file = journal.file();
        }
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> SessionJournal.create(dir, "s1", 2, "Other"))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void anIdThatCouldLeaveTheSessionsDirectoryIsRefused() {
        for (String id : List.of("../escape", "a/b", ".hidden", "", "with space")) {
            assertThatThrownBy(() -> SessionJournal.create(dir, id, 1, null))
                    .as(id)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void anAppendedEntryIsInTheFileBeforeAppendReturns() throws Exception {
        try (SessionJournal journal = SessionJournal.create(dir, "s1", 1, null)) {
            JournalEntry entry = MessageEntry.of(user("u1", "hi", T0));
            journal.append(entry);

            assertThat(loader.load(journal.file()).entries()).containsExactly(entry);
        }
    }

    @Test
    void resumingAfterACutLastLineKeepsTheCutBytesAndStartsNewEntriesOnTheirOwnLine() throws Exception {
        Path file;
        JournalEntry kept = MessageEntry.of(user("u1", "hi", T0));
        try (SessionJournal journal = SessionJournal.create(dir, "s1", 1, null)) {
            journal.append(kept);
            file = journal.file();
        }
        byte[] cut = "{\"type\":\"message\",\"id\":\"a1\",\"ts\":17960".getBytes(StandardCharsets.UTF_8);
        Files.write(file, cut, java.nio.file.StandardOpenOption.APPEND);
        byte[] crashed = Files.readAllBytes(file);

        JournalEntry resumed = new NoticeEntry("n1", T0 + 5, "info", "resumed");
        try (SessionJournal journal = SessionJournal.openForAppend(file)) {
            journal.append(resumed);
        }

        byte[] after = Files.readAllBytes(file);
        assertThat(Arrays.copyOf(after, crashed.length)).isEqualTo(crashed);
        assertThat(after[crashed.length]).isEqualTo((byte) '\n');
        LoadedSession loaded = loader.load(file);
        assertThat(loaded.entries()).containsExactly(kept, resumed);
        assertThat(loaded.problems())
                .extracting(FileProblem::message)
                .containsExactly(
                        "line 3 is not a complete entry (the app may have stopped while writing it); it was skipped");
    }

    @Test
    void aDamagedLineReportedOnceIsSkippedQuietlyOnLaterLoadsButNewDamageIsStillReported() throws Exception {
        Path file;
        try (SessionJournal journal = SessionJournal.create(dir, "s1", 1, null)) {
            journal.append(MessageEntry.of(user("u1", "hi", T0)));
            file = journal.file();
        }
        Files.write(
                file,
                "{\"type\":\"message\",\"id\":\"a1\",\"ts\":17960".getBytes(StandardCharsets.UTF_8),
                java.nio.file.StandardOpenOption.APPEND);

        LoadedSession first = loader.load(file);
        try (SessionJournal journal = SessionJournal.openForAppend(file)) {
            journal.append(new DamageNote("d1", T0 + 5, first.newlyDamagedLines()));
            journal.append(MessageEntry.of(user("u2", "again", T0 + 6)));
        }
        LoadedSession second = loader.load(file);
        Files.write(file, "not json\n".getBytes(StandardCharsets.UTF_8), java.nio.file.StandardOpenOption.APPEND);
        LoadedSession third = loader.load(file);

        assertThat(first.problems()).hasSize(1);
        assertThat(first.newlyDamagedLines()).containsExactly(3L);
        assertThat(second.problems()).isEmpty();
        assertThat(second.newlyDamagedLines()).isEmpty();
        assertThat(second.entries()).hasSize(3);
        assertThat(third.problems())
                .extracting(FileProblem::message)
                .containsExactly("line 6 is not a valid entry (it is not valid JSON); it was skipped");
        assertThat(third.newlyDamagedLines()).containsExactly(6L);
    }

    @Test
    void resumingACleanFileOnlyAppends() throws Exception {
        Path file;
        try (SessionJournal journal = SessionJournal.create(dir, "s1", 1, null)) {
            journal.append(MessageEntry.of(user("u1", "hi", T0)));
            file = journal.file();
        }
        byte[] before = Files.readAllBytes(file);
        JournalEntry title = new TitleEntry("t1", T0 + 1, "Hi");
        try (SessionJournal journal = SessionJournal.openForAppend(file)) {
            journal.append(title);
        }

        byte[] after = Files.readAllBytes(file);
        assertThat(new String(Arrays.copyOfRange(after, before.length, after.length), StandardCharsets.UTF_8))
                .isEqualTo(new String(
                        new JournalCodec(new dev.rebound.json.WireJson()).encode(title), StandardCharsets.UTF_8));
        assertThat(loader.load(file).problems()).isEmpty();
    }

    @Test
    void appendsFromSeveralThreadsAllLandAsWholeLines() throws Exception {
        int threads = 8;
        int perThread = 250;
        List<JournalEntry> expected = new ArrayList<>();
        Path file;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (SessionJournal journal = SessionJournal.create(dir, "s1", 1, null)) {
            file = journal.file();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<JournalEntry> mine = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                    mine.add(MessageEntry.of(user("t" + t + "-" + i, ("thread " + t + " ").repeat(i % 40), T0 + i)));
                }
                expected.addAll(mine);
                done.add(pool.submit(() -> {
                    start.await();
                    for (JournalEntry entry : mine) {
                        journal.append(entry);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }

        LoadedSession loaded = loader.load(file);
        assertThat(loaded.problems()).isEmpty();
        assertThat(loaded.entries()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(Files.readAllLines(file)).hasSize(threads * perThread + 1);
    }

    @Test
    void appendingAfterCloseFailsAndClosingTwiceIsHarmless() throws Exception {
        SessionJournal journal = SessionJournal.create(dir, "s1", 1, null);
        journal.close();
        journal.close();

        assertThatThrownBy(() -> journal.append(new TitleEntry("t", 1, "x")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @org.junit.jupiter.api.Test
    void aChatOpenForWritingCannotBeOpenedForWritingAgainUntilItIsClosed(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        SessionJournal first = SessionJournal.create(dir, "locked-1", 1L, null);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SessionJournal.openForAppend(first.file()))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("already open");
        first.close();
        try (SessionJournal again = SessionJournal.openForAppend(first.file())) {
            org.assertj.core.api.Assertions.assertThat(again.file()).isEqualTo(first.file());
        }
    }
}
