package dev.rebound.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SessionTitlesTest {

    @Test
    void aShortPromptIsItsOwnTitleWithWhitespaceCollapsed() {
        assertThat(SessionTitles.fromPrompt("  How do I\n\tparse   JSON Lines?  "))
                .isEqualTo("How do I parse JSON Lines?");
    }

    @Test
    void aLongPromptIsCutAtAWordBoundaryWithAnEllipsis() {
        String title = SessionTitles.fromPrompt(
                "Please explain, step by step, how a write-ahead log keeps a database " + "consistent after a crash");
        assertThat(title).isEqualTo("Please explain, step by step, how a write-ahead log keeps a…");
        assertThat(title.length() - 1).isLessThanOrEqualTo(SessionTitles.MAX_LENGTH);
    }

    @Test
    void punctuationBeforeTheCutIsDropped() {
        assertThat(SessionTitles.fromPrompt("word ".repeat(10) + "abcdefghi, and then a lot more text follows"))
                .isEqualTo("word ".repeat(10) + "abcdefghi…");
    }

    @Test
    void markdownMarkersAreStripped() {
        assertThat(SessionTitles.fromPrompt("# Why does **this** _fail_?\n> see `main.py` and [the docs](http://x/y)"))
                .isEqualTo("Why does this fail? see main.py and the docs");
        assertThat(SessionTitles.fromPrompt("- first item\n- second item\n1. third"))
                .isEqualTo("first item second item third");
        assertThat(SessionTitles.fromPrompt("```python\nprint('hi')\n```\nwhat does it print?"))
                .isEqualTo("print('hi') what does it print?");
    }

    @Test
    void wordCharactersThatLookLikeMarkdownAreKept() {
        assertThat(SessionTitles.fromPrompt("rename my_var_name and compute 2 * 3"))
                .isEqualTo("rename my_var_name and compute 2 * 3");
    }

    @Test
    void aSingleWordLongerThanTheLimitIsCutInsideIt() {
        assertThat(SessionTitles.fromPrompt("a".repeat(80))).isEqualTo("a".repeat(60) + "…");
    }

    @Test
    void emojiAreNeverCutInHalf() {
        String title = SessionTitles.fromPrompt("🎉".repeat(70));
        assertThat(title).isEqualTo("🎉".repeat(60) + "…");
    }

    @Test
    void aPromptWithNoWordsIsANewChat() {
        assertThat(SessionTitles.fromPrompt("")).isEqualTo("New chat");
        assertThat(SessionTitles.fromPrompt("  \n ")).isEqualTo("New chat");
        assertThat(SessionTitles.fromPrompt("# **")).isEqualTo("New chat");
        assertThat(SessionTitles.fromPrompt(null)).isEqualTo("New chat");
    }
}
