package dev.rebound.history;

import static dev.rebound.history.JournalFixtures.T0;
import static dev.rebound.history.JournalFixtures.failed;
import static dev.rebound.history.JournalFixtures.reply;
import static dev.rebound.history.JournalFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Chat search on real session files in a sessions directory. */
class ChatSearchTest {
    @TempDir
    Path configDir;

    private Path sessions;
    private ChatSearch search;

    @BeforeEach
    void setUp() {
        sessions = configDir.resolve("sessions");
        search = new ChatSearch(sessions);
    }

    @Test
    void aChatIsFoundByItsTitleWithTheMatchMarked() throws Exception {
        session(
                "garden",
                T0,
                "Planning the garden",
                MessageEntry.of(user("u1", "What grows in shade?", T0 + 1)),
                new TitleEntry("t1", T0 + 2, "Shade garden ideas"));
        session("other", T0, "Taxes", MessageEntry.of(user("u1", "Deductions for 2026", T0 + 1)));

        ChatSearch.Results results = search.search("garden", 50);

        assertThat(results.total()).isEqualTo(1);
        ChatSearch.Hit hit = results.hits().getFirst();
        assertThat(hit.id()).isEqualTo("garden");
        assertThat(hit.displayTitle()).isEqualTo("Shade garden ideas");
        assertThat(hit.titleMarks()).containsExactly(new ChatSearch.Span(6, 12));
        assertThat(hit.snippet()).isNull();
        assertThat(hit.summary().file())
                .isEqualTo(sessions.resolve("garden.jsonl").toAbsolutePath());
    }

    @Test
    void wordsOfPromptsAndRepliesAreFoundWithASnippetOfTheFirstMatch() throws Exception {
        session(
                "json",
                T0,
                "Formats",
                MessageEntry.of(user("u1", "How do I stream records?", T0 + 1)),
                MessageEntry.of(reply("a1", "Use **JSON Lines**:\none object\nper line.", T0 + 2)));

        ChatSearch.Hit byReply = search.search("lines", 50).hits().getFirst();
        ChatSearch.Hit byPrompt = search.search("records", 50).hits().getFirst();

        assertThat(byReply.snippet().text()).isEqualTo("Use **JSON Lines**: one object per line.");
        assertThat(byReply.snippet().role()).isEqualTo(ChatSearch.Role.ASSISTANT);
        assertThat(marked(byReply.snippet())).containsExactly("Lines");
        assertThat(byPrompt.snippet().text()).isEqualTo("How do I stream records?");
        assertThat(byPrompt.snippet().role()).isEqualTo(ChatSearch.Role.USER);
        assertThat(marked(byPrompt.snippet())).containsExactly("records");
    }

    @Test
    void everyWordOfTheQueryMustOccurInTheTitleOrTheMessages() throws Exception {
        session(
                "both",
                T0,
                "Kitchen",
                MessageEntry.of(user("u1", "a recipe for bread", T0 + 1)),
                MessageEntry.of(reply("a1", "Knead the dough for ten minutes.", T0 + 2)));
        session("one", T0 + 5, "Bakery", MessageEntry.of(user("u1", "bread prices", T0 + 6)));

        assertThat(ids(search.search("bread dough", 50))).containsExactly("both");
        assertThat(ids(search.search("kitchen knead", 50))).containsExactly("both");
        assertThat(ids(search.search("bread", 50))).containsExactly("one", "both");
        assertThat(ids(search.search("bread croissant", 50))).isEmpty();
        ChatSearch.Snippet snippet =
                search.search("dough bread", 50).hits().getFirst().snippet();
        assertThat(snippet.text()).isEqualTo("a recipe for bread");
    }

    @Test
    void caseAccentsAndTypographicQuotesAreIgnored() throws Exception {
        session(
                "cv",
                T0,
                null,
                MessageEntry.of(user("u1", "Update my RÉSUMÉ, please", T0 + 1)),
                MessageEntry.of(reply("a1", "I don’t see a naïve approach here.", T0 + 2)));

        ChatSearch.Hit hit = search.search("resume", 50).hits().getFirst();

        assertThat(marked(hit.snippet())).containsExactly("RÉSUMÉ");
        assertThat(hit.displayTitle()).isEqualTo("New chat");
        assertThat(ids(search.search("DON'T Naive", 50))).containsExactly("cv");
        assertThat(ids(search.search("Résumé", 50))).containsExactly("cv");
        assertThat(ids(search.search("re\u0301sume\u0301", 50))).containsExactly("cv");
    }

    @Test
    void aChatWrittenAfterIndexingIsFoundByItsNewText() throws Exception {
        Path file = session("grow", T0, "Growing", MessageEntry.of(user("u1", "first words", T0 + 1)));
        assertThat(ids(search.search("zeppelin", 50))).isEmpty();

        try (SessionJournal journal = SessionJournal.openForAppend(file)) {
            journal.append(MessageEntry.of(reply("a1", "A zeppelin floats.", T0 + 2)));
        }
        session("later", T0 + 3, "New one", MessageEntry.of(user("u1", "zeppelin history", T0 + 4)));

        assertThat(ids(search.search("zeppelin", 50))).containsExactly("later", "grow");
        assertThat(search.size().chats()).isEqualTo(2);
    }

    @Test
    void aChatRewrittenWithTheSameSizeIsReadAgainWhenItsTimeChanged() throws Exception {
        Path file = session("same", T0, "Same", MessageEntry.of(user("u1", "alpha", T0 + 1)));
        assertThat(ids(search.search("alpha", 50))).containsExactly("same");

        String content = Files.readString(file).replace("alpha", "gamma");
        Files.writeString(file, content);
        Files.setLastModifiedTime(
                file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 5_000));

        assertThat(ids(search.search("alpha", 50))).isEmpty();
        assertThat(ids(search.search("gamma", 50))).containsExactly("same");
    }

    @Test
    void aDeletedChatIsNoLongerFound() throws Exception {
        Path file = session("gone", T0, "Temporary", MessageEntry.of(user("u1", "ephemeral", T0 + 1)));
        session("kept", T0, "Kept", MessageEntry.of(user("u1", "ephemeral too", T0 + 1)));
        assertThat(ids(search.search("ephemeral", 50))).containsExactlyInAnyOrder("gone", "kept");

        Files.delete(file);

        assertThat(ids(search.search("ephemeral", 50))).containsExactly("kept");
        assertThat(search.size().chats()).isEqualTo(1);
    }

    @Test
    void damagedLinesAreSkippedAndTheRestOfTheFileIsSearched() throws Exception {
        Path file = session(
                "damaged",
                T0,
                "Damaged",
                MessageEntry.of(user("u1", "before the damage", T0 + 1)),
                MessageEntry.of(reply("a1", "still readable", T0 + 2)));
        Files.write(file, "{\"type\":\"message\",\"id\":\"x\" garbage\n".getBytes(), StandardOpenOption.APPEND);
        try (SessionJournal journal = SessionJournal.openForAppend(file)) {
            journal.append(MessageEntry.of(user("u2", "after the damage", T0 + 3)));
        }
        Files.write(file, "{\"type\":\"message\",\"id\":\"cut".getBytes(), StandardOpenOption.APPEND);
        Files.write(sessions.resolve("noise.jsonl"), new byte[] {0, (byte) 0xFF, '\n', '{', '\n'});
        Files.write(sessions.resolve("empty.jsonl"), new byte[0]);

        assertThat(ids(search.search("damage", 50))).containsExactly("damaged");
        ChatSearch.Hit after = search.search("after", 50).hits().getFirst();
        assertThat(after.snippet().text()).isEqualTo("after the damage");
        assertThat(ids(search.search("garbage", 50))).isEmpty();
        assertThat(ids(search.search("readable", 50))).containsExactly("damaged");
    }

    @Test
    void reasoningNoticesErrorsAndRetriedAttemptsAreNotSearched() throws Exception {
        session(
                "retried",
                T0,
                "Retried",
                MessageEntry.of(user("u1", "question", T0 + 1)),
                MessageEntry.of(failed("f1", T0 + 2)),
                new RetriedMark("r1", T0 + 3, "f1", true),
                MessageEntry.of(reply("a1", "The answer.", T0 + 4)),
                new NoticeEntry("n1", T0 + 5, "warning", "Switched to llama: gpt was unavailable."));

        assertThat(ids(search.search("answer", 50))).containsExactly("retried");
        assertThat(ids(search.search("think", 50))).as("reasoning").isEmpty();
        assertThat(ids(search.search("partial", 50)))
                .as("a retried attempt's text")
                .isEmpty();
        assertThat(ids(search.search("unavailable", 50))).as("a notice").isEmpty();
        assertThat(ids(search.search("overloaded", 50))).as("an error").isEmpty();
    }

    @Test
    void aRegeneratedOrEditedTurnIsSearchedAsTheChatShowsItNow() throws Exception {
        session(
                "rewound",
                T0,
                "Rewound",
                MessageEntry.of(user("u1", "Tell me about cats", T0 + 1)),
                MessageEntry.of(reply("a1", "Cats purr.", T0 + 2)),
                new RewindEntry("w1", T0 + 3, "u1", RewindEntry.EDIT),
                MessageEntry.of(user("u2", "Tell me about dogs", T0 + 4)),
                MessageEntry.of(reply("a2", "Dogs bark.", T0 + 5)));

        assertThat(ids(search.search("dogs bark", 50))).containsExactly("rewound");
        assertThat(ids(search.search("cats", 50))).as("the replaced prompt").isEmpty();
        assertThat(ids(search.search("purr", 50))).as("the replaced reply").isEmpty();

        session(
                "cut",
                T0,
                "Cut",
                MessageEntry.of(user("u1", "Tell me about owls", T0 + 1)),
                MessageEntry.of(reply("a1", "Owls hoot.", T0 + 2)),
                new RewindEntry("w1", T0 + 3, "u1", RewindEntry.REGENERATE));
        assertThat(ids(search.search("owls hoot", 50)))
                .as("a rewind with no new prompt after it (a crash between the two) changes nothing, as in the chat")
                .containsExactly("cut");
    }

    @Test
    void aLongMessageIsCutAroundTheMatchWithEllipses() throws Exception {
        String before = "word ".repeat(40);
        String after = " more".repeat(60);
        session("long", T0, "Long", MessageEntry.of(reply("a1", before + "needle" + after, T0 + 1)));

        ChatSearch.Snippet snippet =
                search.search("needle", 50).hits().getFirst().snippet();

        assertThat(snippet.text()).startsWith("…word ").endsWith(" more…").contains("needle");
        assertThat(snippet.text().length()).isLessThanOrEqualTo(102);
        assertThat(snippet.text().indexOf("needle")).isBetween(20, 35);
        assertThat(marked(snippet)).containsExactly("needle");
    }

    @Test
    void chatsWhoseTitleHoldsEveryWordComeFirstThenTheNewestAndTheLimitKeepsTheTotal() throws Exception {
        session("old-title", T0, "Invoice questions", MessageEntry.of(user("u1", "hello", T0 + 1)));
        session("new-text", T0 + 100, "Misc", MessageEntry.of(user("u1", "the invoice is late", T0 + 101)));
        session("mid-text", T0 + 50, "Other", MessageEntry.of(user("u1", "an invoice", T0 + 51)));

        ChatSearch.Results all = search.search("invoice", 50);
        ChatSearch.Results two = search.search("invoice", 2);

        assertThat(ids(all)).containsExactly("old-title", "new-text", "mid-text");
        assertThat(ids(two)).containsExactly("old-title", "new-text");
        assertThat(two.total()).isEqualTo(3);
    }

    @Test
    void aBlankQueryOrAMissingDirectoryFindsNothing() throws Exception {
        assertThat(search.search("anything", 50).total()).isZero();
        session("a", T0, "A", MessageEntry.of(user("u1", "text", T0 + 1)));
        assertThat(search.search("   ", 50).hits()).isEmpty();
    }

    private static List<String> ids(ChatSearch.Results results) {
        return results.hits().stream().map(ChatSearch.Hit::id).toList();
    }

    private static List<String> marked(ChatSearch.Snippet snippet) {
        return snippet.marks().stream()
                .map(span -> snippet.text().substring(span.start(), span.end()))
                .toList();
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
