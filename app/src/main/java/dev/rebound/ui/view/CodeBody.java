package dev.rebound.ui.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.ScrollBar;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * The lines of a code block as a {@link TextFlow} of {@link Text} runs, one per run of one style ({@code tok-keyword},
 * {@code tok-string}… from {@link CodeHighlighter}; every run also has {@code md-text md-code-text}), never wrapped:
 * when the longest line is wider than the reply, a scroll bar under them moves them sideways (so does a sideways wheel
 * or Shift+wheel). Its width comes from the reply, not from the code, and its height is the code's plus the bar's when
 * the bar is needed. A vertical wheel over it is left to the chat.
 *
 * <p>{@link #show} takes the block's whole code each time; while a block streams, the complete lines already shown
 * keep their runs and only the lines after them are lexed and made into runs (the last, maybe partial, line again on
 * every call). Code in no known language, or longer than {@link #HIGHLIGHT_LIMIT}, is one plain run.
 */
final class CodeBody extends Region {
    /**
     * Code longer than this (in characters) is shown plain: every run is a node that the list restyles whenever the
     * reply's row changes, and a block this long is data, not something read by its colours.
     */
    static final int HIGHLIGHT_LIMIT = 50_000;

    private final TextFlow flow = new TextFlow();
    private final ScrollBar bar = new ScrollBar();
    private final Rectangle clip = new Rectangle();
    private final CodeHighlighter highlighter;
    private final int limit;
    private final List<CodeHighlighter.Run> runs = new ArrayList<>();
    private String shown = "";
    private boolean plain = true;
    /** How many characters of {@link #shown} are complete lines made into runs for good, and how many runs they are. */
    private int committedChars;

    private int committedRuns;

    CodeBody(Optional<CodeLanguage> language) {
        this(language, HIGHLIGHT_LIMIT);
    }

    /** With another size limit (for the benchmark). */
    CodeBody(Optional<CodeLanguage> language, int limit) {
        this.highlighter = language.map(CodeHighlighter::new).orElse(null);
        this.limit = limit;
        getStyleClass().add("md-code-body");
        flow.getStyleClass().add("md-code-flow");
        bar.setOrientation(Orientation.HORIZONTAL);
        bar.setFocusTraversable(false);
        bar.setMin(0);
        bar.valueProperty().addListener((obs, old, now) -> flow.setTranslateX(-now.doubleValue()));
        getChildren().addAll(flow, bar);
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
     * Shows {@code code}, the block's whole text. When it continues what was shown (the same complete lines, more
     * after them), only the new lines are lexed; otherwise the block is lexed from its start.
     */
    void show(String code) {
        if (highlighter == null || code.length() > limit) {
            if (!plain || !code.equals(shown)) {
                flow.getChildren().setAll(run(code, null));
                plain = true;
            }
            shown = code;
            return;
        }
        if (plain || !code.regionMatches(0, shown, 0, committedChars)) {
            flow.getChildren().clear();
            highlighter.reset();
            committedChars = 0;
            committedRuns = 0;
            plain = false;
        } else {
            flow.getChildren().remove(committedRuns, flow.getChildren().size());
        }
        char[] text = code.substring(committedChars).toCharArray();
        int lastBreak = code.lastIndexOf('\n') + 1 - committedChars;
        List<Node> added = new ArrayList<>();
        if (lastBreak > 0) {
            lex(text, 0, lastBreak, true, added);
            committedChars += lastBreak;
            committedRuns += added.size();
        }
        lex(text, Math.max(lastBreak, 0), text.length, false, added);
        if (committedRuns == 0 && added.isEmpty()) {
            added.add(run("", null));
        }
        flow.getChildren().addAll(added);
        shown = code;
    }

    /** Whether {@code code} keeps the complete lines shown so far, so {@link #show} would only add to them. */
    boolean continuedBy(String code) {
        return code.regionMatches(0, shown, 0, committedChars);
    }

    /** The code shown, as given to {@link #show}. */
    String code() {
        return shown;
    }

    /** The runs (for tests and, later, selection). */
    TextFlow flow() {
        return flow;
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
        run.getStyleClass().addAll("md-text", "md-code-text");
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
        double lines = linesHeight();
        double overflow = codeWidth - inner;
        // One pixel to spare, so rounding never makes the longest line wrap.
        flow.resizeRelocate(left, top, codeWidth + 1, lines);
        bar.setVisible(overflow > 0);
        if (overflow > 0) {
            bar.setMax(overflow);
            bar.setVisibleAmount(overflow * inner / codeWidth);
            bar.setUnitIncrement(
                    flow.getChildren().isEmpty()
                            ? 16
                            : ((Text) flow.getChildren().getFirst()).getFont().getSize() * 2);
            bar.setBlockIncrement(inner * 0.8);
            bar.setValue(Math.min(bar.getValue(), overflow));
            bar.resizeRelocate(left, top + lines, inner, bar.prefHeight(-1));
        } else {
            bar.setValue(0);
        }
        clip.setWidth(getWidth());
        clip.setHeight(getHeight());
    }

    /** The width of the longest line, unwrapped. */
    private double codeWidth() {
        return flow.prefWidth(-1);
    }

    private double linesHeight() {
        return flow.prefHeight(codeWidth() + 1);
    }
}
