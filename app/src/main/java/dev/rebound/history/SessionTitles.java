package dev.rebound.history;

import java.util.regex.Pattern;

/** Titles made without a model: the first words of the first prompt. */
public final class SessionTitles {
    /** The title of a session with nothing to name it after. */
    public static final String UNTITLED = "New chat";
    /** The most characters (code points) of words a title keeps before it is cut and ends with {@code …}. */
    public static final int MAX_LENGTH = 60;

    private static final Pattern FENCE = Pattern.compile("(```|~~~)[^\\s`]*");
    private static final Pattern IMAGE_OR_LINK = Pattern.compile("!?\\[([^\\]]*)]\\([^)]*\\)");
    private static final Pattern RULE = Pattern.compile("(?m)^[ \\t]*([-*_][ \\t]*){3,}$");
    private static final Pattern LINE_MARKERS =
            Pattern.compile("(?m)^[ \\t]*(?:(?:#{1,6}|>+|[-*+]|\\d{1,9}[.)])[ \\t]+)+");
    private static final Pattern PAIRED_MARKERS = Pattern.compile("\\*\\*|__|~~|`+");
    /** A {@code *} or {@code _} that opens or closes emphasis: at a word's edge, not inside {@code snake_case}. */
    private static final Pattern EMPHASIS =
            Pattern.compile("(?<![\\p{L}\\p{N}])[*_]+(?=\\S)|(?<=\\S)[*_]+(?![\\p{L}\\p{N}])");

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final String TRAILING_PUNCTUATION = ",;:.-–—([{";

    private SessionTitles() {}

    /**
     * A title from the first prompt: its first words, whitespace collapsed and Markdown markers (headings, quotes, list
     * bullets, emphasis, code fences and ticks, link targets) removed, cut at a word boundary so that the words are at
     * most {@value #MAX_LENGTH} characters, with {@code …} added when cut. A prompt with no words gives
     * {@value #UNTITLED}.
     */
    public static String fromPrompt(String firstPrompt) {
        if (firstPrompt == null) {
            return UNTITLED;
        }
        String text = FENCE.matcher(firstPrompt).replaceAll(" ");
        text = IMAGE_OR_LINK.matcher(text).replaceAll("$1");
        text = RULE.matcher(text).replaceAll(" ");
        text = LINE_MARKERS.matcher(text).replaceAll("");
        text = PAIRED_MARKERS.matcher(text).replaceAll("");
        text = EMPHASIS.matcher(text).replaceAll("");
        text = WHITESPACE.matcher(text).replaceAll(" ").strip();
        if (text.isEmpty()) {
            return UNTITLED;
        }
        if (text.codePointCount(0, text.length()) <= MAX_LENGTH) {
            return text;
        }
        return cut(text) + "…";
    }

    private static String cut(String text) {
        int limit = text.offsetByCodePoints(0, MAX_LENGTH);
        int space = text.charAt(limit) == ' ' ? limit : text.lastIndexOf(' ', limit);
        String words = space > 0 ? text.substring(0, space) : text.substring(0, limit);
        int end = words.length();
        while (end > 0 && TRAILING_PUNCTUATION.indexOf(words.charAt(end - 1)) >= 0) {
            end--;
        }
        return end > 0 ? words.substring(0, end).stripTrailing() : words;
    }
}
