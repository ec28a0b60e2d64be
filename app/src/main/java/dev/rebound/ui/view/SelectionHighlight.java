package dev.rebound.ui.view;

import javafx.beans.InvalidationListener;
import javafx.scene.shape.Path;
import javafx.scene.text.TextFlow;

/**
 * Paints the selected characters of a {@link TextFlow}: an unmanaged {@link Path} (style class {@code text-selection},
 * coloured by {@code rebound.css}) behind the flow's text, shaped by {@link TextFlow#getRangeShape}. A flow's text
 * layout ignores unmanaged children, so the highlight changes neither its size nor its line breaks; it is reshaped when
 * the flow is laid out again (a new width re-wraps the lines). A flow that was never selected carries nothing.
 */
final class SelectionHighlight {
    private static final Object KEY = SelectionHighlight.class;

    private final TextFlow flow;
    private final Path path = new Path();
    private final InvalidationListener relayout = obs -> reshape();
    private int from;
    private int to;

    private SelectionHighlight(TextFlow flow) {
        this.flow = flow;
        path.getStyleClass().add("text-selection");
        path.setManaged(false);
        path.setMouseTransparent(true);
        path.setStrokeWidth(0);
    }

    /** Highlights characters {@code from} to {@code to} of {@code flow} (layout counts; an empty range removes it). */
    static void show(TextFlow flow, int from, int to) {
        if (from >= to) {
            clear(flow);
            return;
        }
        SelectionHighlight highlight = (SelectionHighlight) flow.getProperties().get(KEY);
        if (highlight == null) {
            highlight = new SelectionHighlight(flow);
            flow.getProperties().put(KEY, highlight);
            flow.getChildren().addFirst(highlight.path);
            flow.layoutBoundsProperty().addListener(highlight.relayout);
        } else if (highlight.from == from && highlight.to == to) {
            return;
        }
        highlight.from = from;
        highlight.to = to;
        highlight.reshape();
    }

    /** Removes the highlight of {@code flow}, if it has one. */
    static void clear(TextFlow flow) {
        if (flow.getProperties().remove(KEY) instanceof SelectionHighlight highlight) {
            flow.layoutBoundsProperty().removeListener(highlight.relayout);
            flow.getChildren().remove(highlight.path);
        }
    }

    /** The highlighted range of {@code flow} as {@code {from, to}}, or null (for tests). */
    static int[] range(TextFlow flow) {
        return flow.getProperties().get(KEY) instanceof SelectionHighlight h ? new int[] {h.from, h.to} : null;
    }

    private void reshape() {
        path.getElements().setAll(flow.getRangeShape(from, to, true));
    }
}
