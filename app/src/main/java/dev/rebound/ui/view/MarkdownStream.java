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
 */
final class MarkdownStream {
    private static final Pattern BLANK_LINE_BEFORE = Pattern.compile("\\n[ \\t]*\\n[ \\t]*$");

    private final Parser parser = Parser.builder()
            .extensions(List.of(TablesExtension.create()))
            .includeSourceSpans(IncludeSourceSpans.BLOCKS)
            .build();
    private int settled;
    private long parsedChars;

    /**
     * What changed since the last call.
     *
     * @param settledBlocks blocks that are final now, to be rendered once and kept
     * @param tail the blocks after them, which may still change
     */
    record Update(List<Node> settledBlocks, List<Node> tail) {
    }

    /** Parses the text after the settled part of {@code source} (which only ever grows until {@link #reset()}). */
    Update advance(CharSequence source) {
        String pending = source.subSequence(Math.min(settled, source.length()), source.length()).toString();
        parsedChars += pending.length();
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

    /** Every top-level block of a complete text. */
    List<Node> all(CharSequence source) {
        parsedChars += source.length();
        return topLevelBlocks(parser.parse(source.toString()));
    }

    /** Forgets the settled part: the next {@link #advance} starts from the beginning. */
    void reset() {
        settled = 0;
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
