package dev.rebound.ui.view;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Node;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * Splits a growing Markdown text into settled blocks and one tail block, so a streaming reply is parsed
 * incrementally: only the text after the last settled block is parsed again when more arrives. A top-level block is
 * settled once a block that starts after a blank line follows it: without the blank line a later character can still
 * fold the next line back into it (a lone {@code |} under a table is a paragraph until the row's first cell arrives).
 * Reference-style links whose definition is in an earlier settled block are shown as text while the reply streams.
 * <p>A single long block (a big fenced code block, list or table) stays the open tail until it ends, so parsing it
 * again per delta would cost work quadratic in its length. {@link #due} therefore lets a long open tail be parsed only
 * once it grew by an eighth since the last parse: the work per character stays bounded whatever the block's length.
 */
final class MarkdownStream {
    private static final Pattern BLANK_LINE_BEFORE = Pattern.compile("\\n[ \\t]*\\n[ \\t]*$");
    /** An open tail up to this many characters is parsed again on every call: cheap, and shown at once. */
    static final int SHORT_TAIL = 2_000;
    /** A longer open tail is parsed again once it grew by this fraction (1/8) of itself. */
    private static final int GROWTH_DIVISOR = 8;

    private final Parser parser = Parser.builder()
            .extensions(List.of(TablesExtension.create()))
            .includeSourceSpans(IncludeSourceSpans.BLOCKS)
            .build();
    private int settled;
    private int parsedUpTo;
    private long parsedChars;

    /**
     * What changed since the last call.
     *
     * @param settledBlocks blocks that are final now, to be rendered once and kept
     * @param tail the blocks after them, which may still change
     */
    record Update(List<Node> settledBlocks, List<Node> tail) {}

    /**
     * Whether {@link #advance} is worth calling now: always while the open tail is short, else once the text grew by
     * an eighth of the open tail since the last parse. A caller that skips a call must still call {@link #advance}
     * when the text is complete (and should from time to time, so a stalled stream shows what it has).
     */
    boolean due(CharSequence source) {
        int open = source.length() - Math.min(settled, source.length());
        int grown = source.length() - parsedUpTo;
        return open <= SHORT_TAIL || (long) grown * GROWTH_DIVISOR >= open;
    }

    /** Whether more than {@code source} was parsed (the text was cut shorter since). */
    boolean parsedPast(CharSequence source) {
        return parsedUpTo > source.length();
    }

    /** Whether the text has not grown since it was last parsed. */
    boolean upToDate(CharSequence source) {
        return source.length() == parsedUpTo;
    }

    /** Parses the text after the settled part of {@code source} (which only ever grows until {@link #reset()}). */
    Update advance(CharSequence source) {
        String pending = source.subSequence(Math.min(settled, source.length()), source.length())
                .toString();
        parsedChars += pending.length();
        parsedUpTo = source.length();
        List<Node> blocks = topLevelBlocks(parser.parse(pending));
        for (int i = blocks.size() - 1; i >= 1; i--) {
            int start = blocks.get(i).getSourceSpans().getFirst().getInputIndex();
            if (BLANK_LINE_BEFORE.matcher(pending.substring(0, start)).find()) {
                settled += start;
                return new Update(blocks.subList(0, i), blocks.subList(i, blocks.size()));
            }
        }
        return new Update(List.of(), blocks);
    }

    /**
     * Every top-level block of a complete text. They count as settled: a later {@link #advance} (say, a final flush
     * when the reply's status changes) parses only what was appended since, so nothing is rendered twice.
     */
    List<Node> all(CharSequence source) {
        parsedChars += source.length();
        settled = source.length();
        parsedUpTo = source.length();
        return topLevelBlocks(parser.parse(source.toString()));
    }

    /** Forgets the settled part: the next {@link #advance} starts from the beginning. */
    void reset() {
        settled = 0;
        parsedUpTo = 0;
    }

    /** How many characters were parsed in total (for tests and benchmarks of the incremental work). */
    long parsedChars() {
        return parsedChars;
    }

    private static List<Node> topLevelBlocks(Node document) {
        List<Node> blocks = new ArrayList<>();
        for (Node n = document.getFirstChild(); n != null; n = n.getNext()) {
            blocks.add(n);
        }
        return blocks;
    }
}
