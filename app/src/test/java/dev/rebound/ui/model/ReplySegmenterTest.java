package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a long reply is cut into rows: only before a new top-level block, never inside fenced code. */
class ReplySegmenterTest {

    private static List<Integer> cuts(ReplySegmenter segmenter, CharSequence text) {
        List<Integer> cuts = new ArrayList<>();
        for (int cut = segmenter.next(text); cut >= 0; cut = segmenter.next(text)) {
            cuts.add(cut);
        }
        return cuts;
    }

    @Test
    void cutsBeforeAParagraphThatFollowsABlankLineOnceThePartIsLongEnough() {
        String text = "one two three\n\nfour five\n\nsix\n";

        assertThat(cuts(new ReplySegmenter(10), text)).containsExactly(text.indexOf("four"), text.indexOf("six"));
    }

    @Test
    void aShortPartIsNotCut() {
        String text = "short\n\nagain\n\nthird one here\n\nlast\n";

        assertThat(cuts(new ReplySegmenter(14), text)).containsExactly(text.indexOf("third"), text.indexOf("last"));
    }

    @Test
    void neverCutsInsideFencedCodeEvenAcrossBlankLines() {
        String text = "intro text\n\n```java\nint a;\n\nint b;\n\n```\n\nafter the code\n";

        assertThat(cuts(new ReplySegmenter(1), text)).containsExactly(text.indexOf("```java"), text.indexOf("after"));
    }

    @Test
    void cutsAfterAClosedCodeBlockWhateverThePartsLength() {
        String direct = "Here:\n```java\nint a;\n```\nThen text.\n";
        String blankBetween = "Here:\n\n~~~\nx = 1\n~~~\n\n\nThen text.\n";
        String list = "```sh\nls\n```\n- a list after it\n";

        assertThat(cuts(new ReplySegmenter(10_000), direct)).containsExactly(direct.indexOf("Then"));
        assertThat(cuts(new ReplySegmenter(10_000), blankBetween)).containsExactly(blankBetween.indexOf("Then"));
        assertThat(cuts(new ReplySegmenter(10_000), list)).containsExactly(list.indexOf("- a list"));
    }

    @Test
    void noCutAfterACodeBlockBeforeAnIndentedLineOrInsideTheNextFence() {
        String indented = "```\ncode\n```\n  continues an item\n";
        String fenceLine = "```\ncode\n``` not a close\nstill code\n```\n";
        String twoBlocks = "```\na\n```\n```\nb\n```\n";

        assertThat(cuts(new ReplySegmenter(10_000), indented)).isEmpty();
        assertThat(cuts(new ReplySegmenter(10_000), fenceLine)).isEmpty();
        // The second fence's opening line starts a new block after the first: a cut there, and none inside it.
        assertThat(cuts(new ReplySegmenter(10_000), twoBlocks)).containsExactly(twoBlocks.indexOf("```\nb"));
    }

    @Test
    void aTightListWhoseItemsHoldCodeIsNotCutBetweenItems() {
        String text = "1. Install:\n   ```bash\n   npm i\n   ```\n2. Run:\n   ```bash\n   npm start\n   ```\n3. Done\n";

        assertThat(cuts(new ReplySegmenter(1), text)).isEmpty();
    }

    @Test
    void aFenceOnAListMarkerLineOpensCodeSoItsIndentedCloserDoesNotOpenAnother() {
        String text = "- ```\n  a\n  ```\n\n```\nreal code\n\nmore code\n```\nafter\n";

        assertThat(cuts(new ReplySegmenter(10_000), text)).containsExactly(text.indexOf("after"));
    }

    @Test
    void resetForgetsACodeBlockThatJustClosed() {
        ReplySegmenter segmenter = new ReplySegmenter(10_000);
        assertThat(cuts(segmenter, "```\ncode\n```\n")).isEmpty();

        segmenter.reset();

        assertThat(cuts(segmenter, "plain text\nmore\n")).isEmpty();
    }

    @Test
    void aTildeFenceClosesOnlyWithTildesAtLeastAsLong() {
        String text = "a\n\n~~~~\nx\n\n~~~\n\nstill code\n~~~~\n\nout\n";

        assertThat(cuts(new ReplySegmenter(1), text)).containsExactly(text.indexOf("~~~~"), text.indexOf("out"));
    }

    @Test
    void aLineWithThreeBackticksAndMoreBackticksIsInlineCodeNotAFence() {
        String text = "a\n\n```inline``` code\n\nnext\n";

        assertThat(cuts(new ReplySegmenter(1), text)).containsExactly(text.indexOf("```"), text.indexOf("next"));
    }

    @Test
    void anIndentedLineAfterABlankLineContinuesTheBlockAbove() {
        String text = "- item one\n\n  more of item one\n\n    indented code\n\n- item two\n";

        assertThat(cuts(new ReplySegmenter(1), text)).containsExactly(text.indexOf("- item two"));
    }

    @Test
    void aLineWithoutABlankLineBeforeItIsNeverACut() {
        String text = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n";

        assertThat(cuts(new ReplySegmenter(1), text)).isEmpty();
    }

    @Test
    void anIncompleteLastLineWaitsForItsEnd() {
        ReplySegmenter segmenter = new ReplySegmenter(1);
        StringBuilder text = new StringBuilder("first\n\nsec");

        assertThat(segmenter.next(text)).isEqualTo(-1);
        text.append("ond\n");
        assertThat(segmenter.next(text)).isEqualTo(7);
    }

    @Test
    void fedInSmallDeltasItCutsWhereItCutsTheWholeText() {
        StringBuilder whole = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            whole.append("## Section ")
                    .append(i)
                    .append("\n\n```\ncode ")
                    .append(i)
                    .append("\n\n# not a heading\n\nmore code\n```\n\n");
        }
        List<Integer> expected = cuts(new ReplySegmenter(300), whole);

        ReplySegmenter streamed = new ReplySegmenter(300);
        StringBuilder growing = new StringBuilder();
        List<Integer> got = new ArrayList<>();
        for (int i = 0; i < whole.length(); i += 7) {
            growing.append(whole, i, Math.min(whole.length(), i + 7));
            got.addAll(cuts(streamed, growing));
        }

        assertThat(expected).hasSizeGreaterThan(20);
        assertThat(got).isEqualTo(expected);
        for (int cut : expected) {
            assertThat(whole.substring(cut)).matches("(?s)(## Section|```\ncode).*");
            long fences = whole.substring(0, cut)
                    .lines()
                    .filter(line -> line.equals("```"))
                    .count();
            assertThat(fences % 2).as("fence lines before the cut at %d", cut).isZero();
        }
    }

    @Test
    void resetStartsAgainFromAnEmptyText() {
        ReplySegmenter segmenter = new ReplySegmenter(1);
        assertThat(cuts(segmenter, "a\n\n```\nopen fence\n\n")).containsExactly(3);

        segmenter.reset();

        assertThat(cuts(segmenter, "x\n\ny\n")).containsExactly(3);
    }

    @Test
    void refusesAPartLengthBelowOne() {
        assertThatThrownBy(() -> new ReplySegmenter(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
