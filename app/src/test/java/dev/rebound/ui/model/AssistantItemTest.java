package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The text a reply row holds: shared with the session when restored, grown in place while streaming. */
class AssistantItemTest {

    @Test
    void aRestoredReplyHoldsTheSessionsOwnTextInsteadOfACopy() {
        String saved = new String("A finished reply from the session file.");
        AssistantItem item = AssistantItem.finished("m1", "p/m", saved, AssistantItem.Status.DONE, null);

        assertThat(item.text()).isSameAs(saved);
        assertThat(item.lengthProperty().get()).isEqualTo(saved.length());
    }

    @Test
    void aRestoredReplyThatGrowsAgainKeepsItsTextAndAppends() {
        AssistantItem item = AssistantItem.finished("m1", "p/m", "Hello", AssistantItem.Status.DONE, null);

        item.append(", world");

        assertThat(item.text().toString()).isEqualTo("Hello, world");
        assertThat(item.lengthProperty().get()).isEqualTo(12);
    }

    @Test
    void aRestartEmptiesTheRowForTheNextAttempt() {
        AssistantItem item = new AssistantItem("m1", "p/m", AssistantItem.Status.STREAMING);
        item.append("partial");

        item.restart("m2", "p/other");

        assertThat(item.text().toString()).isEmpty();
        assertThat(item.lengthProperty().get()).isZero();
        item.append("fresh");
        assertThat(item.text().toString()).isEqualTo("fresh");
    }

    /** About 10 kB of Markdown: paragraphs and fenced code with blank lines inside. */
    static String longReply() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 150; i++) {
            text.append("Paragraph ")
                    .append(i)
                    .append(" says something worth reading about the topic.\n\n")
                    .append("```\nline ")
                    .append(i)
                    .append("\n\nnext line\n```\n\n");
        }
        return text.toString();
    }

    private static String joinedParts(AssistantItem item) {
        StringBuilder joined = new StringBuilder();
        for (int i = 0; i < item.partCount(); i++) {
            joined.append(item.part(i));
        }
        return joined.toString();
    }

    @Test
    void aLongStreamedReplyIsCutIntoPartsThatJoinIntoItsText() {
        AssistantItem item = new AssistantItem("m1", "p/m", AssistantItem.Status.STREAMING);
        String text = longReply();
        List<Integer> counts = new ArrayList<>();
        item.partCountProperty().addListener((obs, old, now) -> counts.add(now.intValue()));

        for (int i = 0; i < text.length(); i += 5) {
            item.append(text.substring(i, Math.min(text.length(), i + 5)));
        }

        assertThat(item.partCount()).isGreaterThanOrEqualTo(4);
        assertThat(counts)
                .isEqualTo(IntStream.rangeClosed(2, item.partCount()).boxed().toList());
        assertThat(joinedParts(item)).isEqualTo(text);
        for (int i = 1; i < item.partCount(); i++) {
            assertThat(item.part(i).toString()).matches("(?s)(Paragraph|```\nline).*");
            // A part is long enough, or it ends with a closed code block (which leaves the streaming row at once).
            String previous = item.part(i - 1).toString();
            assertThat(previous.length() >= ReplySegmenter.DEFAULT_MIN_PART
                            || previous.stripTrailing().endsWith("```"))
                    .as("part %d: %s", i - 1, previous)
                    .isTrue();
        }
    }

    @Test
    void theLastPartGrowsWithTheReply() {
        AssistantItem item = new AssistantItem("m1", "p/m", AssistantItem.Status.STREAMING);
        item.append(longReply());
        CharSequence last = item.part(item.partCount() - 1);
        int before = last.length();

        item.append("More.");

        assertThat(last.length()).isEqualTo(before + 5);
        assertThat(last.toString()).endsWith("More.");
    }

    @Test
    void aRestoredLongReplyIsCutTheSameWay() {
        String text = longReply();
        AssistantItem streamed = new AssistantItem("m1", "p/m", AssistantItem.Status.STREAMING);
        streamed.append(text);

        AssistantItem restored = AssistantItem.finished("m1", "p/m", text, AssistantItem.Status.DONE, null);

        assertThat(restored.partCount()).isEqualTo(streamed.partCount()).isGreaterThan(1);
        assertThat(joinedParts(restored)).isEqualTo(text);
    }

    @Test
    void aRestartGoesBackToOnePartAndADroppedPartReadsEmpty() {
        AssistantItem item = new AssistantItem("m1", "p/m", AssistantItem.Status.STREAMING);
        item.append(longReply());
        CharSequence second = item.part(1);

        item.restart("m2", null);

        assertThat(item.partCount()).isEqualTo(1);
        assertThat(second.length()).isZero();
        assertThat(second.toString()).isEmpty();
        assertThat(second.subSequence(0, 0).toString()).isEmpty();
        item.append("Fresh\n\nstart\n");
        assertThat(item.partCount()).isEqualTo(1);
        assertThat(item.part(0).toString()).isEqualTo("Fresh\n\nstart\n");
    }

    @Test
    void aRestoredLongReplyThatGrowsKeepsItsPartsAndAddsNewOnes() {
        String text = longReply();
        AssistantItem restored = AssistantItem.finished("m1", "p/m", text, AssistantItem.Status.DONE, null);
        int parts = restored.partCount();

        restored.append(longReply());

        AssistantItem streamed = new AssistantItem("m1", "p/m", AssistantItem.Status.STREAMING);
        streamed.append(text + longReply());
        assertThat(restored.partCount()).isGreaterThan(parts).isEqualTo(streamed.partCount());
        assertThat(joinedParts(restored)).isEqualTo(text + longReply());
    }
}
