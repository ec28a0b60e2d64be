package dev.rebound.history;

import static dev.rebound.history.JournalFixtures.T0;
import static dev.rebound.history.JournalFixtures.reply;
import static dev.rebound.history.JournalFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.rebound.files.FileProblem;
import dev.rebound.json.WireJson;
import dev.rebound.settings.ConfigDirectory;
import java.awt.GraphicsEnvironment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionCatalogueTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(T0 + 1_000_000), ZoneOffset.UTC);

    @TempDir
    Path configDir;

    private Path sessions;
    private Path trashDir;
    private SessionCatalogue catalogue;

    @BeforeEach
    void setUp() {
        sessions = configDir.resolve("sessions");
        trashDir = configDir.resolve("trash").resolve("sessions");
        catalogue = new SessionCatalogue(sessions, new FolderTrash(trashDir), CLOCK);
    }

    @Test
    void sessionsAreListedNewestActivityFirstWithTitlesFromHeadersAndLaterTitleEntries() throws Exception {
        session("old", T0, "Old header title", MessageEntry.of(user("u1", "hi", T0 + 10)));
        session(
                "renamed",
                T0 + 1,
                "Before",
                MessageEntry.of(user("u1", "hi", T0 + 20)),
                new TitleEntry("t1", T0 + 21, "First rename"),
                MessageEntry.of(reply("a1", "hello", T0 + 22)),
                new TitleEntry("t2", T0 + 23, "Second rename"),
                new NoticeEntry("n1", T0 + 30, "info", "x"));
        session("untitled", T0 + 15, null);

        List<SessionSummary> list = catalogue.list();

        assertThat(list).extracting(SessionSummary::id).containsExactly("renamed", "untitled", "old");
        assertThat(list).extracting(SessionSummary::title).containsExactly("Second rename", null, "Old header title");
        assertThat(list).extracting(SessionSummary::lastActivity).containsExactly(T0 + 30, T0 + 15, T0 + 10);
        assertThat(list).extracting(SessionSummary::created).containsExactly(T0 + 1, T0 + 15, T0);
        assertThat(list.get(1).displayTitle()).isEqualTo("New chat");
        assertThat(list).allMatch(s -> s.problems().isEmpty());
        assertThat(list.getFirst().file())
                .isEqualTo(sessions.resolve("renamed.jsonl").toAbsolutePath());
        assertThat(list.getFirst().sizeBytes())
                .isEqualTo(Files.size(list.getFirst().file()));
    }

    @Test
    void aTitleEntryFarBeforeTheEndOfALongSessionIsStillFound() throws Exception {
        JournalEntry[] entries = new JournalEntry[402];
        entries[0] = new TitleEntry("t1", T0, "Named early");
        entries[1] = new TitleEntry("t2", T0 + 1, "Renamed early");
        for (int i = 2; i < entries.length; i++) {
            entries[i] = MessageEntry.of(reply("a" + i, "Markdown reply ".repeat(100), T0 + i));
        }
        Path file = session("long", T0, "Header", entries);
        assertThat(Files.size(file))
                .as("the title entries lie far before the file's last 64 KB")
                .isGreaterThan(512 * 1024);

        SessionSummary summary = catalogue.list().getFirst();

        assertThat(summary.title()).isEqualTo("Renamed early");
        assertThat(summary.lastActivity()).isEqualTo(T0 + 401);
    }

    @Test
    void filesThatAreNotSessionsAreNotListed() throws Exception {
        session("real", T0, "Real");
        Files.writeString(sessions.resolve("notes.txt"), "not a session");
        Files.writeString(sessions.resolve("bad name.jsonl"), "{}");
        Files.writeString(sessions.resolve(".hidden.jsonl"), "{}");
        Files.createDirectory(sessions.resolve("folder.jsonl"));

        assertThat(catalogue.list()).extracting(SessionSummary::id).containsExactly("real");
    }

    @Test
    void aDamagedSessionIsStillListedWithItsProblems() throws Exception {
        Path file = session("damaged", T0, null, MessageEntry.of(user("u1", "hi", T0 + 5)));
        Files.writeString(file, "{\"type\":\"message\",\"id\":\"a1\",\"ts\":", StandardOpenOption.APPEND);
        Files.writeString(
                sessions.resolve("headless.jsonl"),
                "garbage\n"
                        + new String(
                                new JournalCodec(new dev.rebound.json.WireJson())
                                        .encode(new NoticeEntry("n", T0 + 7, "info", "x")),
                                StandardCharsets.UTF_8));

        List<SessionSummary> list = catalogue.list();

        assertThat(list).extracting(SessionSummary::id).containsExactly("headless", "damaged");
        assertThat(list.get(1).lastActivity())
                .as("from the last complete entry")
                .isEqualTo(T0 + 5);
        assertThat(list.get(1).problems())
                .extracting(FileProblem::message)
                .containsExactly("the last line is not a complete entry (the app may have stopped while writing it)");
        assertThat(list.get(0).problems())
                .extracting(FileProblem::message)
                .containsExactly("line 1 is not a valid session header; the session id was taken from the file name");
        assertThat(list.get(0).lastActivity()).isEqualTo(T0 + 7);
    }

    @Test
    void aMissingSessionsDirectoryHasNoSessions() throws Exception {
        assertThat(catalogue.list()).isEmpty();
        assertThat(catalogue.find("nothing")).isEmpty();
    }

    @Test
    void renamingAppendsATitleEntryAndLeavesTheRestOfTheFileAsItWas() throws Exception {
        Path file = session("s1", T0, "Old", MessageEntry.of(user("u1", "hi", T0 + 1)));
        byte[] before = Files.readAllBytes(file);

        TitleEntry entry = catalogue.rename("s1", "  New\n name  ");

        assertThat(entry.title()).isEqualTo("New name");
        assertThat(entry.ts()).isEqualTo(CLOCK.millis());
        byte[] after = Files.readAllBytes(file);
        assertThat(Arrays.copyOf(after, before.length)).isEqualTo(before);
        LoadedSession loaded = new SessionLoader().load(file);
        assertThat(loaded.entries().getLast()).isEqualTo(entry);
        assertThat(loaded.title()).isEqualTo("New name");
        assertThat(catalogue.list().getFirst().title()).isEqualTo("New name");
    }

    @Test
    void renamingRefusesABlankTitleAndAnUnknownSession() throws Exception {
        session("s1", T0, "Old");

        assertThatThrownBy(() -> catalogue.rename("s1", " \n ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> catalogue.rename("s1", "x".repeat(201))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> catalogue.rename("missing", "Title")).isInstanceOf(NoSuchFileException.class);
        assertThat(catalogue.list().getFirst().title()).isEqualTo("Old");
    }

    @Test
    void aChatOpenElsewhereIsNotDeletedAndTheErrorSaysSo() throws Exception {
        Path file = session("s1", T0, null);
        byte[] bytes = Files.readAllBytes(file);

        try (SessionJournal open = SessionJournal.openForAppend(file)) {
            assertThatThrownBy(() -> catalogue.delete("s1"))
                    .isInstanceOf(java.io.IOException.class)
                    .hasMessageContaining("already open");
            assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
            assertThat(trashDir.resolve("s1.jsonl")).doesNotExist();
        }
        assertThat(catalogue.delete("s1")).as("once closed").isTrue();
    }

    @Test
    void deletingMovesTheFileToTheTrashFolderWithItsBytes() throws Exception {
        Path file = session("s1", T0, "Doomed", MessageEntry.of(user("u1", "hi", T0 + 1)));
        byte[] bytes = Files.readAllBytes(file);

        assertThat(catalogue.delete("s1")).isTrue();

        assertThat(file).doesNotExist();
        assertThat(catalogue.find("s1")).isEmpty();
        assertThat(catalogue.list()).isEmpty();
        assertThat(Files.readAllBytes(trashDir.resolve("s1.jsonl"))).isEqualTo(bytes);
        assertThat(catalogue.delete("s1")).as("already gone").isFalse();
    }

    @Test
    void aNameAlreadyInTheTrashGetsASuffixAndNothingIsOverwritten() throws Exception {
        byte[] first = Files.readAllBytes(session("s1", T0, "First"));
        catalogue.delete("s1");
        byte[] second = Files.readAllBytes(session("s1", T0 + 1, "Second"));
        catalogue.delete("s1");
        byte[] third = Files.readAllBytes(session("s1", T0 + 2, "Third"));
        catalogue.delete("s1");

        assertThat(Files.readAllBytes(trashDir.resolve("s1.jsonl"))).isEqualTo(first);
        assertThat(Files.readAllBytes(trashDir.resolve("s1-2.jsonl"))).isEqualTo(second);
        assertThat(Files.readAllBytes(trashDir.resolve("s1-3.jsonl"))).isEqualTo(third);
    }

    @Test
    void withoutADesktopTheCatalogueOfAConfigDirectoryDeletesToItsTrashFolder() throws Exception {
        assumeThat(GraphicsEnvironment.isHeadless())
                .as("a desktop may offer its own trash")
                .isTrue();
        SessionCatalogue ofConfig =
                SessionCatalogue.of(ConfigDirectory.at(configDir), CLOCK, new JournalCodec(new WireJson()));
        byte[] bytes = Files.readAllBytes(session("s1", T0, "x"));

        assertThat(ofConfig.sessionsDir()).isEqualTo(sessions.toAbsolutePath());
        assertThat(ofConfig.delete("s1")).isTrue();

        assertThat(Files.readAllBytes(configDir.resolve("trash/sessions/s1.jsonl")))
                .isEqualTo(bytes);
    }

    @Test
    void theCatalogueOfAConfigDirectoryHandsOnTheCodecItIsGivenAndStillListsAndRenames() throws Exception {
        JournalCodec shared = new JournalCodec(new WireJson());
        SessionCatalogue ofConfig = SessionCatalogue.of(ConfigDirectory.at(configDir), CLOCK, shared);
        session("s1", T0, "x");

        assertThat(ofConfig.codec()).isSameAs(shared);
        assertThat(ofConfig.list()).extracting(SessionSummary::title).containsExactly("x");
        ofConfig.rename("s1", "renamed");
        assertThat(ofConfig.list()).extracting(SessionSummary::title).containsExactly("renamed");
    }

    @Test
    void findGivesTheFileOfAKnownSessionOnly() throws Exception {
        Path file = session("s1", T0, null);

        assertThat(catalogue.find("s1")).contains(file);
        assertThat(catalogue.find("s2")).isEmpty();
        assertThat(catalogue.find("../sessions/s1")).isEmpty();
    }

    private Path session(String id, long created, String title, JournalEntry... entries) throws Exception {
        try (SessionJournal journal = SessionJournal.create(sessions, id, created, title)) {
            for (JournalEntry entry : entries) {
                journal.append(entry);
            }
            return journal.file();
        }
    }
}
