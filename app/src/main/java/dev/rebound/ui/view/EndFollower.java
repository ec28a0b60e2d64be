package dev.rebound.ui.view;

import javafx.beans.value.ChangeListener;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;

/**
 * Keeps the end of a list in view while it grows, as long as the reader has not scrolled away from it. After every
 * layout pass of the scene it checks the bottom of the last row and, when following, scrolls it into view before the
 * frame is drawn. Scrolling by the reader (wheel, scroll bar, keys) decides anew whether to follow: scrolled back to
 * the end, the list follows again.
 * <p>This is done after layout, on the real row heights, because a {@link ListView} only estimates the heights of
 * rows it has not laid out: a position set before that ({@code scrollTo}, {@code setPosition(1)}) drifts when the new
 * rows turn out taller, and then the end of a streaming reply slipped out of view.
 */
final class EndFollower {
    /** How far above the bottom the last row may end and still count as "at the end", in pixels. */
    private static final double SLACK = 2;

    private final ListView<?> list;
    private final Runnable afterLayout = this::afterLayout;
    private final ChangeListener<Scene> sceneListener = (obs, old, now) -> moved(old, now);
    private boolean following = true;
    private boolean readerScrolled;
    /** The row to put back at the top after the next layout, or -1. */
    private int anchorRow = -1;
    /** How far into that row the top of the list was, as a fraction of the row's height. */
    private double anchorDepth;

    EndFollower(ListView<?> list) {
        this.list = list;
        list.addEventFilter(ScrollEvent.SCROLL, e -> readerScrolled = true);
        list.addEventFilter(MouseEvent.MOUSE_DRAGGED, e -> {
            if (inScrollBar(e.getTarget())) {
                readerScrolled = true;
            }
        });
        list.addEventFilter(MouseEvent.MOUSE_RELEASED, e -> {
            if (inScrollBar(e.getTarget())) {
                readerScrolled = true;
            }
        });
        list.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            switch (e.getCode()) {
                case UP, DOWN, PAGE_UP, PAGE_DOWN, HOME, END, KP_UP, KP_DOWN -> readerScrolled = true;
                default -> {
                    // Other keys do not scroll the list.
                }
            }
        });
        list.sceneProperty().addListener(sceneListener);
        moved(null, list.getScene());
    }

    /** Follows the end from now on (a new turn began), whatever the reader did before. */
    void follow() {
        following = true;
        readerScrolled = false;
        list.requestLayout();
    }

    /**
     * Keeps the reader's place while the rows change height (the text size changed): when the end is not followed,
     * after the next layout the row at the top now is put back at the top, as deep into it as now (in proportion to its
     * height). While the end is followed it stays followed.
     */
    void keepPlace() {
        if (following
                || !(list.lookup(".virtual-flow") instanceof VirtualFlow<?> flow)
                || flow.getFirstVisibleCell() == null) {
            return;
        }
        IndexedCell<?> top = flow.getFirstVisibleCell();
        anchorRow = top.getIndex();
        anchorDepth = top.getHeight() > 0 ? Math.max(0, -top.getLayoutY()) / top.getHeight() : 0;
        list.requestLayout();
    }

    /** Whether the end is being followed. */
    boolean following() {
        return following;
    }

    /** Stops checking (the list is being let go). */
    void dispose() {
        list.sceneProperty().removeListener(sceneListener);
        moved(list.getScene(), null);
    }

    private void moved(Scene from, Scene to) {
        if (from != null) {
            from.removePostLayoutPulseListener(afterLayout);
        }
        if (to != null) {
            to.addPostLayoutPulseListener(afterLayout);
        }
    }

    private void afterLayout() {
        if (!(list.lookup(".virtual-flow") instanceof VirtualFlow<?> flow) || list.getItems() == null) {
            return;
        }
        if (readerScrolled) {
            readerScrolled = false;
            following = atEnd(flow);
            anchorRow = -1;
            return;
        }
        if (anchorRow >= 0) {
            int row = anchorRow;
            anchorRow = -1;
            if (!following && row < list.getItems().size()) {
                flow.scrollToTop(row);
                list.layout();
                IndexedCell<?> top = flow.getFirstVisibleCell();
                if (top != null && top.getIndex() == row) {
                    flow.scrollPixels(anchorDepth * top.getHeight());
                    list.layout();
                }
            }
            return;
        }
        if (!following || atEnd(flow)) {
            return;
        }
        int last = list.getItems().size() - 1;
        // A row not laid out yet has only an estimated height: bring it in, lay out, then align its real bottom.
        for (int i = 0; i < 3 && !atEnd(flow); i++) {
            IndexedCell<?> cell = flow.getLastVisibleCell();
            if (cell == null || cell.getIndex() < last) {
                flow.scrollTo(last);
            } else {
                flow.scrollPixels(bottom(cell) - viewport(flow));
            }
            list.layout();
        }
    }

    private boolean atEnd(VirtualFlow<?> flow) {
        int rows = list.getItems().size();
        IndexedCell<?> cell = flow.getLastVisibleCell();
        if (rows == 0 || cell == null) {
            return true;
        }
        return cell.getIndex() >= rows - 1 && bottom(cell) <= viewport(flow) + SLACK;
    }

    private static double bottom(IndexedCell<?> cell) {
        return cell.getLayoutY() + cell.getHeight();
    }

    private static double viewport(VirtualFlow<?> flow) {
        return flow.getHeight() - flow.snappedTopInset() - flow.snappedBottomInset();
    }

    private static boolean inScrollBar(Object target) {
        for (Node node = target instanceof Node n ? n : null; node != null; node = node.getParent()) {
            if (node instanceof ScrollBar) {
                return true;
            }
        }
        return false;
    }
}
