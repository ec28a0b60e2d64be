package dev.rebound.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyScrubberTest {
    private static final String KEY = "sk-canary-0123456789abcdef";

    private static String streamed(KeyScrubber s, String... pieces) {
        StringBuilder out = new StringBuilder();
        for (String p : pieces) {
            out.append(s.push(p));
        }
        return out.append(s.flush()).toString();
    }

    @Test
    void aKeySplitAcrossPiecesIsNeverReleased() {
        KeyScrubber s = new KeyScrubber(KEY);
        StringBuilder shown = new StringBuilder();
        for (String p : new String[] {"Your key is sk-", "canary-0123", "456789abc", "def, keep it safe."}) {
            shown.append(s.push(p));
            assertThat(shown.toString()).doesNotContain("sk-canary-0123456789");
        }
        shown.append(s.flush());
        assertThat(shown.toString()).isEqualTo("Your key is [redacted], keep it safe.");
    }

    @Test
    void textThatOnlyLooksLikeTheStartOfTheKeyIsReleasedOnceItDiverges() {
        KeyScrubber s = new KeyScrubber(KEY);
        assertThat(s.push("ask-")).isEqualTo("a");
        assertThat(s.push("canary birds")).as("the final s could begin the key").isEqualTo("sk-canary bird");
        assertThat(s.flush()).isEqualTo("s");
    }

    @Test
    void aHeldPrefixIsReleasedAtTheEndOfTheStream() {
        assertThat(streamed(new KeyScrubber(KEY), "ends with sk-can")).isEqualTo("ends with sk-can");
    }

    @Test
    void anyRandomSplitOfTextHoldingTheKeyTwiceIsScrubbedAndOtherwiseUnchanged() {
        Random random = new Random(42);
        String text = "a " + KEY + " b sk-c " + KEY + KEY + " end";
        String expected = text.replace(KEY, KeyScrubber.REDACTED);
        for (int run = 0; run < 2000; run++) {
            KeyScrubber s = new KeyScrubber(KEY);
            StringBuilder out = new StringBuilder();
            int i = 0;
            while (i < text.length()) {
                int n = 1 + random.nextInt(8);
                String piece = text.substring(i, Math.min(text.length(), i + n));
                out.append(s.push(piece));
                assertThat(out.toString()).doesNotContain(KEY);
                i += n;
            }
            out.append(s.flush());
            assertThat(out.toString()).isEqualTo(expected);
        }
    }

    @Test
    void withoutAKeyEverythingPassesThrough() {
        assertThat(streamed(new KeyScrubber((String) null), "sk-", "anything")).isEqualTo("sk-anything");
    }

    @Test
    void everyKeyIsRemovedEvenSplitAcrossPieces() {
        KeyScrubber s = new KeyScrubber(java.util.List.of("sk-ant-old-1234", "sk-new-5678"));
        assertThat(streamed(s, "echo sk-ant-o", "ld-1234 and sk-n", "ew-5678 and sk-ne", "arly."))
                .isEqualTo("echo [redacted] and [redacted] and sk-nearly.");
    }

    @Test
    void inAWholeTextALongerKeyContainingAShorterOneIsRemovedWhole() {
        KeyScrubber s = new KeyScrubber(java.util.List.of("sk-ant-old-1234", "sk-ant-old-1234-extended"));
        assertThat(s.scrub("a sk-ant-old-1234-extended b sk-ant-old-1234")).isEqualTo("a [redacted] b [redacted]");
    }
}
