package dev.rebound.history;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How chat search compares text: whitespace collapsed, then every character folded on its own to one character — lower
 * case, accents dropped ({@code É} → {@code e}, by the first character of its canonical decomposition), typographic
 * quotes and dashes made ASCII ({@code ’} → {@code '}). Folding keeps the length, so a match found in the folded text
 * is at the same place in the collapsed one, where a snippet is cut.
 */
final class SearchText {
    private static final char[] FOLD = table();

    private SearchText() {}

    /**
     * The text in composed form (NFC) with every run of whitespace made one space and no space at either end: what a
     * snippet shows and what {@link #fold} folds.
     */
    static String collapse(String text) {
        return squeeze(text, false);
    }

    /** {@code fold(collapse(text))} in one pass: what the index keeps. */
    static String collapseAndFold(String text) {
        return squeeze(text, true);
    }

    private static String squeeze(String text, boolean fold) {
        String composed = Normalizer.isNormalized(text, Normalizer.Form.NFC)
                ? text
                : Normalizer.normalize(text, Normalizer.Form.NFC);
        char[] out = composed.toCharArray();
        int length = 0;
        boolean space = false;
        for (int i = 0; i < out.length; i++) {
            char c = out[i];
            if (isSpace(c)) {
                space = length > 0;
            } else {
                if (space) {
                    out[length++] = ' ';
                    space = false;
                }
                out[length++] = fold ? FOLD[c] : c;
            }
        }
        return new String(out, 0, length);
    }

    /** Whitespace, including the no-break spaces {@link Character#isWhitespace} leaves out; quick for ASCII. */
    private static boolean isSpace(char c) {
        if (c < 0x80) {
            return c <= ' ' && Character.isWhitespace(c);
        }
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }

    /** Folds collapsed text character by character; the result has the same length. */
    static String fold(String collapsed) {
        char[] chars = collapsed.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            chars[i] = FOLD[chars[i]];
        }
        return new String(chars);
    }

    /** The distinct folded words of a query, longest first (so the rarer word is tried first); none for a blank one. */
    static List<String> words(String query) {
        String folded = collapseAndFold(query);
        Set<String> words = new LinkedHashSet<>();
        for (String word : folded.split(" ")) {
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        List<String> sorted = new ArrayList<>(words);
        sorted.sort((a, b) -> Integer.compare(b.length(), a.length()));
        return sorted;
    }

    /** The folded form of every UTF-16 unit; surrogates stay as they are. Built once (about 65,000 look-ups). */
    private static char[] table() {
        char[] table = new char[Character.MAX_VALUE + 1];
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            char ch = (char) c;
            if (c < 128) {
                table[c] = Character.toLowerCase(ch);
            } else if (Character.isSurrogate(ch)) {
                table[c] = ch;
            } else {
                table[c] = special(ch);
            }
        }
        return table;
    }

    private static char special(char c) {
        return switch (c) {
            case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032' -> '\'';
            case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033', '\u00AB', '\u00BB' -> '"';
            case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212' -> '-';
            default -> {
                String decomposed = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFD);
                char base = decomposed.isEmpty() ? c : decomposed.charAt(0);
                yield Character.toLowerCase(base);
            }
        };
    }
}
