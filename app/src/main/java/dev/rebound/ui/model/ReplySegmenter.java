package dev.rebound.ui.model;

/**
 * Finds where a growing Markdown reply can be cut into parts that render independently, so the chat list can show a
 * long reply as several rows: a part that is complete never changes again, and only the last part is laid out and
 * styled while the reply streams. A cut is made at the start of a line that follows a blank line and begins with a
 * non-blank character (a new top-level block), outside fenced code, once the current part is at least
 * {@link #minPartLength} characters long; and, whatever the part's length, when the first non-blank line after a
 * fenced code block that began at the margin (not in a list item) starts at the margin too. A code block is many
 * nodes once highlighted, and the row that streams is styled whole several times a frame: a closed block leaves that
 * row at once. Only complete lines are looked at, each once,
 * so the work per character is constant.
 * <p>What a cut can change, compared with rendering the reply whole: an ordered list split between two items goes on
 * numbering from its marker; a loose list becomes two lists; a reference-style link whose definition is in another
 * part shows as text; an HTML block that spans a blank line ({@code <pre>}, comments) or holds a fenced code block
 * ({@code <details>}) is split.
 */
public final class ReplySegmenter {
    /** Parts are at least this long (but a single long block is never cut). */
    public static final int DEFAULT_MIN_PART = 1_000;

    private final int minPartLength;
    private int scanned;
    /** Where the search for the end of the line at {@link #scanned} goes on: the text before it holds no newline. */
    private int searched;

    private int partStart;
    private boolean previousBlank;
    /** A top-level fenced code block closed, and only blank lines came after it. */
    private boolean afterFence;
    /** The open fence began at the start of its line (not indented, not after a list marker). */
    private boolean fenceTopLevel;

    private char fence;
    private int fenceLength;

    /** A segmenter with the default part length. */
    public ReplySegmenter() {
        this(DEFAULT_MIN_PART);
    }

    /** @param minPartLength the shortest part worth a row of its own */
    public ReplySegmenter(int minPartLength) {
        if (minPartLength < 1) {
            throw new IllegalArgumentException("minPartLength must be positive: " + minPartLength);
        }
        this.minPartLength = minPartLength;
    }

    /**
     * Reads the lines completed since the last call and returns where the next part starts, or -1 when no cut is due.
     * Call it again with the same text while it returns a cut: one call finds at most one.
     *
     * @param text the reply so far; it only grows between calls until {@link #reset()}
     */
    public int next(CharSequence text) {
        int length = text.length();
        while (scanned < length) {
            int end = indexOf(text, '\n', Math.max(scanned, searched), length);
            if (end < 0) {
                searched = length;
                return -1;
            }
            int start = scanned;
            scanned = end + 1;
            boolean blank = isBlank(text, start, end);
            boolean cut = !blank
                    && fence == 0
                    && !Character.isWhitespace(text.charAt(start))
                    && (afterFence || previousBlank && start - partStart >= minPartLength);
            if (!blank) {
                afterFence = false;
                trackFence(text, start, end);
            }
            previousBlank = blank;
            if (cut) {
                partStart = start;
                return start;
            }
        }
        return -1;
    }

    /** Starts again from an empty text. */
    public void reset() {
        scanned = 0;
        searched = 0;
        partStart = 0;
        previousBlank = false;
        afterFence = false;
        fenceTopLevel = false;
        fence = 0;
        fenceLength = 0;
    }

    private void trackFence(CharSequence text, int start, int end) {
        int i = start;
        while (i < end && i - start < 3 && text.charAt(i) == ' ') {
            i++;
        }
        // A fence may follow a list item's marker ("- ```", "1. ```"): its closer is then indented in the item.
        i = afterListMarker(text, i, end);
        boolean topLevel = i == start;
        if (i >= end || (text.charAt(i) != '`' && text.charAt(i) != '~')) {
            return;
        }
        char c = text.charAt(i);
        int run = 0;
        while (i + run < end && text.charAt(i + run) == c) {
            run++;
        }
        if (run < 3) {
            return;
        }
        if (fence == 0) {
            if (c == '`' && indexOf(text, '`', i + run, end) >= 0) {
                return; // a backtick fence's info string holds no backtick: this is inline code
            }
            fence = c;
            fenceLength = run;
            fenceTopLevel = topLevel;
        } else if (c == fence && run >= fenceLength && isBlank(text, i + run, end)) {
            fence = 0;
            fenceLength = 0;
            // Only a block that began at the margin: one inside a list item may be followed by the next item.
            afterFence = fenceTopLevel;
        }
    }

    /** Where the text after a list item's marker and its spaces begins, or {@code i} when none starts at {@code i}. */
    private static int afterListMarker(CharSequence text, int i, int end) {
        int j = i;
        if (j < end && (text.charAt(j) == '-' || text.charAt(j) == '*' || text.charAt(j) == '+')) {
            j++;
        } else {
            while (j < end && j - i < 9 && Character.isDigit(text.charAt(j))) {
                j++;
            }
            if (j == i || j >= end || (text.charAt(j) != '.' && text.charAt(j) != ')')) {
                return i;
            }
            j++;
        }
        if (j >= end || text.charAt(j) != ' ') {
            return i;
        }
        while (j < end && text.charAt(j) == ' ') {
            j++;
        }
        return j;
    }

    private static boolean isBlank(CharSequence text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && c != '\r') {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(CharSequence text, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }
}
