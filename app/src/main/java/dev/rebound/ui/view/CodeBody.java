package dev.rebound.ui.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javafx.collections.ObservableList;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.ScrollBar;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * The lines of a code block as {@link Text} runs, one per run of one style ({@code tok-keyword}, {@code tok-string}…
 * from {@link CodeHighlighter}; every run also has {@code md-code-text}, and no other class: each one is styled on
 * every frame its row streams), in a column of {@link TextFlow}s of
 * {@link #CHUNK_LINES} lines each ({@code md-code-flow}), never wrapped:
 * when the longest line is wider than the reply, a scroll bar under them moves them sideways (so does a sideways wheel
 * or Shift+wheel). Its width comes from the reply, not from the code, and its height is the code's plus the bar's when
 * the bar is needed. A vertical wheel over it is left to the chat.
 *
 * <p>{@link #show} takes the block's whole code each time; while a block streams, the complete lines already shown
 * keep their runs and only the lines after them are lexed and made into runs (the last, maybe partial, line again on
 * every call; past {@link #LIVE_LIMIT} the rest of a block still being written is one plain run until it is
 * complete). Code in no known language, or longer than {@link #HIGHLIGHT_LIMIT}, is one plain run.
 */
final class CodeBody extends Region {
    /**
     * Code longer than this (in characters) is shown plain. Every run is a node, and the chat list restyles all the
     * nodes of a reply's last row whenever that row changes (each frame while it streams) and when the row is
     * scrolled into view; past this size that costs more than a frame (docs/benchmarks.md, "Syntax highlighting").
     */
    static final int HIGHLIGHT_LIMIT = 20_000;

    /**
     * While a block is still being written, lines after about this many characters are shown plain, in one run, and
     * highlighted once the block is complete: so the runs restyled per frame while it streams stay few.
     */
    static final int LIVE_LIMIT = 8_000;

    /**
     * Lines per text flow: JavaFX lays a {@code TextFlow} out in time quadratic in its runs, so a long block is a
     * column of flows of this many lines each (and a streaming block only lays out its last one again).
     */
    static final int CHUNK_LINES = 64;

    private final List<TextFlow> chunks = new ArrayList<>();
    private final ScrollBar bar = new ScrollBar();
    private final Rectangle clip = new Rectangle();
    private final CodeHighlighter highlighter;
    private final int limit;
    private final List<CodeHighlighter.Run> runs = new ArrayList<>();
    private String shown = "";
    private boolean plain = true;
    /** How many characters of {@link #shown} are complete lines made into runs for good. */
    private int committedChars;
    /** The complete lines and their runs in the last chunk (after them come the runs of the partial last line). */
    private int chunkLines;

    private int chunkRuns;

    CodeBody(Optional<CodeLanguage> language) {
        this(language, HIGHLIGHT_LIMIT);
    }

    /** With another size limit (for the benchmark). */
    CodeBody(Optional<CodeLanguage> language, int limit) {
        this.highlighter = language.map(CodeHighlighter::new).orElse(null);
        this.limit = limit;
        getStyleClass().add("md-code-body");
        bar.setOrientation(Orientation.HORIZONTAL);
        bar.setFocusTraversable(false);
        bar.setMin(0);
        bar.valueProperty().addListener((obs, old, now) -> chunks.forEach(c -> c.setTranslateX(-now.doubleValue())));
        getChildren().add(bar);
        setClip(clip);
        addEventHandler(ScrollEvent.SCROLL, e -> {
            double sideways = e.getDeltaX() != 0 ? e.getDeltaX() : e.isShiftDown() ? e.getDeltaY() : 0;
            if (sideways != 0 && bar.isVisible()) {
                bar.setValue(Math.clamp(bar.getValue() - sideways, bar.getMin(), bar.getMax()));
                e.consume();
            }
        });
    }

    /**
     * Shows {@code code}, the block's whole and complete text. When it continues what was shown (the same complete
     * lines, more after them), only the new lines are lexed; otherwise the block is lexed from its start.
     */
    void show(String code) {
        show(code, true);
    }

    /**
     * Shows {@code code}; unless it is {@code complete} (its closing fence came, or the reply ended), lines past
     * {@link #LIVE_LIMIT} stay plain for now.
     */
    void show(String code, boolean complete) {
        if (highlighter == null || code.length() > limit) {
            if (!plain || !code.equals(shown)) {
                clear();
                target().getChildren().add(run(code, null));
                plain = true;
            }
            shown = code;
            return;
        }
        if (plain || !continuedBy(code)) {
            clear();
            highlighter.reset();
            plain = false;
        } else if (!chunks.isEmpty()) {
            ObservableList<Node> last = chunks.getLast().getChildren();
            // A selection's highlight may lie before the runs (SelectionHighlight): count the runs after it.
            last.remove(leading(last) + chunkRuns, last.size());
        }
        char[] text = code.substring(committedChars).toCharArray();
        int pos = 0;
        while (complete || committedChars < LIVE_LIMIT) {
            TextFlow chunk = target();
            int end = pos;
            int lines = 0;
            while (lines < CHUNK_LINES - chunkLines) {
                int lineBreak = indexOf(text, '\n', end);
                if (lineBreak < 0) {
                    break;
                }
                end = lineBreak + 1;
                lines++;
            }
            if (lines == 0) {
                break;
            }
            List<Node> added = new ArrayList<>();
            lex(text, pos, end, true, added);
            chunk.getChildren().addAll(added);
            chunkRuns += added.size();
            chunkLines += lines;
            committedChars += end - pos;
            pos = end;
        }
        List<Node> added = new ArrayList<>();
        if (complete || committedChars < LIVE_LIMIT) {
            lex(text, pos, text.length, false, added);
        } else if (pos < text.length) {
            added.add(run(new String(text, pos, text.length - pos), null));
        }
        if (added.isEmpty() && committedChars == 0) {
            added.add(run("", null));
        }
        target().getChildren().addAll(added);
        shown = code;
    }

    /** The last chunk if it has room for another line, else a new one. */
    private TextFlow target() {
        if (chunks.isEmpty() || chunkLines >= CHUNK_LINES) {
            TextFlow chunk = new TextFlow();
            chunk.getStyleClass().add("md-code-flow");
            chunk.setTranslateX(-bar.getValue());
            chunks.add(chunk);
            getChildren().add(chunks.size() - 1, chunk);
            chunkLines = 0;
            chunkRuns = 0;
        }
        return chunks.getLast();
    }

    private void clear() {
        getChildren().removeAll(chunks);
        chunks.clear();
        committedChars = 0;
        chunkLines = 0;
        chunkRuns = 0;
    }

    private static int indexOf(char[] text, char c, int from) {
        for (int i = from; i < text.length; i++) {
            if (text[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code code} keeps the complete lines shown so far, so {@link #show} would only add to them. */
    boolean continuedBy(String code) {
        return !plain && code.regionMatches(0, shown, 0, committedChars) || plain && code.startsWith(shown);
    }

    /** The code shown, as given to {@link #show}. */
    String code() {
        return shown;
    }

    /** The text flows, of up to {@link #CHUNK_LINES} lines each, top to bottom. */
    List<TextFlow> chunks() {
        return List.copyOf(chunks);
    }

    /** Every run of every chunk, in order (for tests). */
    List<Text> runs() {
        return chunks.stream()
                .flatMap(c -> c.getChildren().stream())
                .filter(Text.class::isInstance)
                .map(Text.class::cast)
                .toList();
    }

    /** The scroll bar (for tests). */
    ScrollBar bar() {
        return bar;
    }

    /** Makes runs of {@code text[from, to)}, whose lines end in line breaks except perhaps the last. */
    private void lex(char[] text, int from, int to, boolean commit, List<Node> out) {
        runs.clear();
        int lineStart = from;
        for (int i = from; i < to; i++) {
            if (text[i] == '\n') {
                highlighter.line(text, lineStart, i, commit, runs);
                lineStart = i + 1;
            }
        }
        if (lineStart < to) {
            highlighter.line(text, lineStart, to, commit, runs);
        }
        int start = from;
        String style = null;
        for (CodeHighlighter.Run next : runs) {
            if (next.start() > start) {
                out.add(run(new String(text, start, next.start() - start), style));
            }
            start = next.start();
            style = next.style();
        }
        if (to > start) {
            out.add(run(new String(text, start, to - start), style));
        }
    }

    private static Text run(String text, String style) {
        Text run = new Text(text);
        run.getStyleClass().add("md-code-text");
        if (style != null) {
            run.getStyleClass().add(style);
        }
        return run;
    }

    /** Its height depends on its width (the bar shows only when the code is wider): parents must pass the width. */
    @Override
    public Orientation getContentBias() {
        return Orientation.HORIZONTAL;
    }

    @Override
    protected double computeMinWidth(double height) {
        return snappedLeftInset() + snappedRightInset();
    }

    @Override
    protected double computePrefWidth(double height) {
        return computeMinWidth(height);
    }

    @Override
    protected double computeMinHeight(double width) {
        return computePrefHeight(width);
    }

    @Override
    protected double computePrefHeight(double width) {
        boolean overflows = width > 0 && codeWidth() > width - snappedLeftInset() - snappedRightInset();
        return snappedTopInset() + linesHeight() + (overflows ? bar.prefHeight(-1) : 0) + snappedBottomInset();
    }

    @Override
    protected void layoutChildren() {
        double left = snappedLeftInset();
        double top = snappedTopInset();
        double inner = getWidth() - left - snappedRightInset();
        double codeWidth = codeWidth();
        double y = top;
        for (TextFlow chunk : chunks) {
            double height = chunk.prefHeight(-1);
            // One pixel to spare, so rounding never makes the longest line wrap.
            chunk.resizeRelocate(left, y, chunk.prefWidth(-1) + 1, height);
            y += height;
        }
        double overflow = codeWidth - inner;
        bar.setVisible(overflow > 0);
        if (overflow > 0) {
            bar.setMax(overflow);
            bar.setVisibleAmount(overflow * inner / codeWidth);
            bar.setUnitIncrement(fontSize() * 2);
            bar.setBlockIncrement(inner * 0.8);
            bar.setValue(Math.min(bar.getValue(), overflow));
            bar.resizeRelocate(left, y, inner, bar.prefHeight(-1));
        } else {
            bar.setValue(0);
        }
        clip.setWidth(getWidth());
        clip.setHeight(getHeight());
    }

    private double fontSize() {
        if (!chunks.isEmpty()) {
            for (Node child : chunks.getFirst().getChildren()) {
                if (child instanceof Text run) {
                    return run.getFont().getSize();
                }
            }
        }
        return 12;
    }

    /** How many nodes before a chunk's first run are not runs (a selection's highlight). */
    private static int leading(List<Node> children) {
        int count = 0;
        while (count < children.size() && !(children.get(count) instanceof Text)) {
            count++;
        }
        return count;
    }

    /** The width of the longest line, unwrapped. */
    private double codeWidth() {
        double width = 0;
        for (TextFlow chunk : chunks) {
            width = Math.max(width, chunk.prefWidth(-1));
        }
        return width;
    }

    private double linesHeight() {
        double height = 0;
        for (TextFlow chunk : chunks) {
            height += chunk.prefHeight(-1);
        }
        return height;
    }
}
