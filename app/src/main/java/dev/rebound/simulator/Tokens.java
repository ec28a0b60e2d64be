package dev.rebound.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulator's notion of a token: a word with the whitespace before it, words longer than
 * {@value #MAX_TOKEN_CHARS} characters split into pieces — close enough to real tokenizers (about four characters per
 * token of English) for rates and usage figures to look right.
 */
final class Tokens {
    static final int MAX_TOKEN_CHARS = 8;

    private Tokens() {}

    /** Splits text into tokens; joined, they give the text back. */
    static List<String> split(CharSequence text) {
        List<String> tokens = new ArrayList<>(text.length() / 4 + 1);
        int start = 0;
        while (start < text.length()) {
            int end = tokenEnd(text, start);
            tokens.add(text.subSequence(start, end).toString());
            start = end;
        }
        return tokens;
    }

    /** The number of tokens {@link #split} would give, not counting whitespace at the end. */
    static int count(CharSequence text) {
        int count = 0;
        int start = 0;
        while (start < text.length()) {
            int end = tokenEnd(text, start);
            if (!Character.isWhitespace(text.charAt(end - 1))) {
                count++;
            }
            start = end;
        }
        return count;
    }

    /** Where the token starting at {@code from} ends: after its leading whitespace and up to 8 word characters. */
    private static int tokenEnd(CharSequence text, int from) {
        int n = text.length();
        int i = from;
        while (i < n && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        int wordStart = i;
        while (i < n && !Character.isWhitespace(text.charAt(i)) && i - wordStart < MAX_TOKEN_CHARS) {
            i++;
        }
        return i;
    }

    /** The first {@code max} tokens. */
    static List<String> cut(List<String> tokens, int max) {
        return tokens.size() <= max ? tokens : List.copyOf(tokens.subList(0, max));
    }

    /** The tokens that make up the first {@code chars} characters, the last one shortened to fit. */
    static List<String> firstChars(List<String> tokens, int chars) {
        List<String> out = new ArrayList<>();
        int left = chars;
        for (String token : tokens) {
            if (left <= 0) {
                break;
            }
            String piece = token.length() <= left ? token : token.substring(0, left);
            out.add(piece);
            left -= piece.length();
        }
        return out;
    }
}
