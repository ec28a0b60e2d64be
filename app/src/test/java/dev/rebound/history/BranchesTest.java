package dev.rebound.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The current branch of a history whose last prompt was regenerated or edited. */
class BranchesTest {
    private static final ModelRef GPT = ModelRef.parse("openai/gpt");

    private static JournalEntry user(String id) {
        return MessageEntry.of(new UserMessage(id, "text of " + id, 1));
    }

    private static JournalEntry reply(String id) {
        return MessageEntry.of(new AssistantMessage(
                id,
                List.of(new ContentBlock.Text("x")),
                GPT.provider(),
                GPT.id(),
                "openai-completions",
                null,
                null,
                StopReason.STOP,
                null,
                null,
                null,
                1));
    }

    private static List<String> ids(List<JournalEntry> entries) {
        return entries.stream().map(JournalEntry::id).toList();
    }

    @Test
    void aHistoryWithoutARewindIsItsOwnBranch() {
        List<JournalEntry> entries = List.of(user("u1"), reply("a1"));
        assertThat(Branches.current(entries)).isSameAs(entries);
        assertThat(Branches.rewound(entries)).isFalse();
    }

    @Test
    void aRewindTakesOutTheReplacedPromptAndEverythingAfterIt() {
        List<JournalEntry> entries = List.of(
                user("u1"),
                reply("a1"),
                user("u2"),
                reply("a2"),
                new NoticeEntry("n1", 2, "warning", "Switched keys"),
                new RetriedMark("m1", 2, "a2", false),
                new RewindEntry("r1", 3, "u2", RewindEntry.REGENERATE),
                user("u3"),
                reply("a3"));

        assertThat(ids(Branches.current(entries))).containsExactly("u1", "a1", "u3", "a3");
        assertThat(Branches.rewound(entries)).isTrue();
    }

    @Test
    void titlesDamageNotesAndTheUsersModelChoicesOutliveTheTurnTheyFollowedButFallbacksDoNot() {
        List<JournalEntry> entries = List.of(
                user("u1"),
                new TitleEntry("t1", 2, "A title"),
                new ModelChangeEntry(
                        "c1",
                        2,
                        GPT,
                        ModelRef.parse("openai/mini"),
                        ModelChangeEntry.ROLE_USER,
                        ModelChangeEntry.REASON_USER),
                new ModelChangeEntry("c2", 2, GPT, ModelRef.parse("openai/mini"), "fallback", "fallback"),
                reply("a1"),
                new DamageNote("d1", 2, List.of(7L)),
                new RewindEntry("r1", 3, "u1", RewindEntry.EDIT),
                user("u2"));

        assertThat(ids(Branches.current(entries))).containsExactly("t1", "c1", "d1", "u2");
    }

    @Test
    void rewindsFollowOneAnotherAndARewindOfAnUnknownPromptChangesNothing() {
        List<JournalEntry> entries = List.of(
                user("u1"),
                reply("a1"),
                new RewindEntry("r1", 3, "u1", RewindEntry.REGENERATE),
                user("u2"),
                reply("a2"),
                new RewindEntry("r2", 4, "u2", RewindEntry.EDIT),
                user("u3"),
                new RewindEntry("r3", 5, "gone", RewindEntry.EDIT),
                reply("a3"));

        assertThat(ids(Branches.current(entries))).containsExactly("u3", "a3");
    }

    @Test
    void aRewindWithNoPromptAfterItChangesNothingSoAKillBetweenTheTwoLosesNoExchange() {
        List<JournalEntry> entries =
                List.of(user("u1"), reply("a1"), new RewindEntry("r1", 3, "u1", RewindEntry.REGENERATE));

        assertThat(ids(Branches.current(entries))).containsExactly("u1", "a1");
    }

    @Test
    void aRewindIsWrittenAndReadBackAsItself() {
        JournalCodec codec = new JournalCodec(new dev.rebound.json.WireJson());
        RewindEntry rewind = new RewindEntry("r1", 3, "u1", RewindEntry.EDIT);
        byte[] line = codec.encode(rewind);

        assertThat(new String(line, java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("{\"type\":\"rewind\",\"id\":\"r1\",\"ts\":3,\"replaces\":\"u1\",\"reason\":\"edit\"}\n");
        assertThat(codec.decode(line, 0, line.length - 1)).isEqualTo(new JournalCodec.EntryLine(rewind));
    }
}
