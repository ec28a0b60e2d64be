package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyComposerTest {

    private static String text(List<String> tokens) {
        return String.join("", tokens);
    }

    @Test
    void theSameSeedAndPromptGiveTheSameReplyAndOtherSeedsVary() {
        String a = text(new ReplyComposer(1).reply("How do retries work?"));
        String again = text(new ReplyComposer(1).reply("How do retries work?"));
        long distinct = java.util.stream.LongStream.range(0, 8)
                .mapToObj(seed -> text(new ReplyComposer(seed).reply("How do retries work?")))
                .distinct()
                .count();

        assertThat(again).isEqualTo(a);
        assertThat(distinct).isGreaterThan(4);
    }

    @Test
    void aLongReplyHasHeadingsListsATableAndCode() {
        String reply = text(new ReplyComposer(3).reply("Give me a long answer"));

        assertThat(reply)
                .startsWith("## ")
                .contains("\n### 1. ", "\n- **", "| status | meaning | what to do |", "\n|---|---|---|\n", "\n```");
        assertThat(Tokens.count(reply)).isBetween(ReplyComposer.LONG_TOKENS - 10, ReplyComposer.LONG_TOKENS);
    }

    @Test
    void aReplyEndsOnAWholeParagraphNotInsideACodeBlockOrTable() {
        for (long seed = 0; seed < 40; seed++) {
            for (String prompt :
                    List.of("hi", "Give me a long answer", "answer in 700 tokens", "answer in 90 tokens")) {
                List<String> tokens = new ReplyComposer(seed).reply(prompt);
                String reply = text(tokens);
                String lastLine = reply.substring(reply.lastIndexOf('\n') + 1);

                assertThat(tokens).as("seed %d, %s", seed, prompt).hasSize(ReplyComposer.targetTokens(prompt));
                assertThat(reply.lines().filter(line -> line.startsWith("```")).count() % 2)
                        .as("fences closed, seed %d, %s", seed, prompt)
                        .isZero();
                assertThat(lastLine)
                        .as("seed %d, %s", seed, prompt)
                        .endsWith(".")
                        .doesNotStartWith("|")
                        .doesNotStartWith("- ")
                        .doesNotStartWith("#");
                for (String block : reply.split("\n\n")) {
                    List<String> lines = block.lines()
                            .filter(l -> l.startsWith("- ") || l.startsWith("| 4") || l.startsWith("| 5"))
                            .toList();
                    assertThat(lines)
                            .as("no list item or table row twice, seed %d", seed)
                            .doesNotHaveDuplicates();
                }
            }
        }
    }

    @Test
    void aShortReplyIsShortAndATokenCountIsHonoured() {
        assertThat(new ReplyComposer(5).reply("hi")).hasSize(ReplyComposer.SHORT_TOKENS);
        assertThat(new ReplyComposer(5).reply("answer in 5000 tokens please")).hasSize(5000);
    }

    @Test
    void onlyAnExplicitRequestChangesTheLength() {
        assertThat(ReplyComposer.targetTokens("How long should a client back off?"))
                .isEqualTo(ReplyComposer.SHORT_TOKENS);
        assertThat(ReplyComposer.targetTokens("My model has a 128000 tokens context; what now?"))
                .isEqualTo(ReplyComposer.SHORT_TOKENS);
        assertThat(ReplyComposer.targetTokens("Reply with exactly 80 tokens")).isEqualTo(80);
        assertThat(ReplyComposer.targetTokens("write 300 tokens about backoff")).isEqualTo(300);
        assertThat(ReplyComposer.targetTokens("A longer response, please")).isEqualTo(ReplyComposer.LONG_TOKENS);
    }

    @Test
    void tokensJoinBackToTheTextAndSplitLongWords() {
        List<String> tokens = Tokens.split("Retrying  exponentially\nis fine");

        assertThat(tokens).containsExactly("Retrying", "  exponent", "ially", "\nis", " fine");
        assertThat(Tokens.count("Retrying  exponentially\nis fine")).isEqualTo(5);
        assertThat(Tokens.firstChars(tokens, 12)).containsExactly("Retrying", "  ex");
    }
}
