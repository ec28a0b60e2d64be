package dev.rebound.ui.view;

import javafx.geometry.Orientation;
import javafx.scene.control.ScrollBar;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Text;

/**
 * The lines of a code block, never wrapped: when the longest is wider than the reply, a scroll bar under them moves
 * them sideways (so does a sideways wheel or Shift+wheel). Its width comes from the reply, not from the code, and its
 * height is the code's plus the bar's when the bar is needed. A vertical wheel over it is left to the chat.
 */
final class CodeBody extends Region {
    private final Text code;
    private final ScrollBar bar = new ScrollBar();
    private final Rectangle clip = new Rectangle();

    CodeBody(Text code) {
        this.code = code;
        getStyleClass().add("md-code-body");
        bar.setOrientation(Orientation.HORIZONTAL);
        bar.setFocusTraversable(false);
        bar.setMin(0);
        bar.valueProperty().addListener((obs, old, now) -> code.setTranslateX(-now.doubleValue()));
        getChildren().addAll(code, bar);
        setClip(clip);
        addEventHandler(ScrollEvent.SCROLL, e -> {
            double sideways = e.getDeltaX() != 0 ? e.getDeltaX() : e.isShiftDown() ? e.getDeltaY() : 0;
            if (sideways != 0 && bar.isVisible()) {
                bar.setValue(Math.clamp(bar.getValue() - sideways, bar.getMin(), bar.getMax()));
                e.consume();
            }
        });
    }

    /** The scroll bar (for tests). */
    ScrollBar bar() {
        return bar;
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
        double lines = code.getLayoutBounds().getHeight();
        boolean overflows = width > 0 && codeWidth() > width - snappedLeftInset() - snappedRightInset();
        return snappedTopInset() + lines + (overflows ? bar.prefHeight(-1) : 0) + snappedBottomInset();
    }

    @Override
    protected void layoutChildren() {
        double left = snappedLeftInset();
        double top = snappedTopInset();
        double inner = getWidth() - left - snappedRightInset();
        double lines = code.getLayoutBounds().getHeight();
        double overflow = codeWidth() - inner;
        code.relocate(left, top);
        bar.setVisible(overflow > 0);
        if (overflow > 0) {
            bar.setMax(overflow);
            bar.setVisibleAmount(overflow * inner / codeWidth());
            bar.setUnitIncrement(code.getFont().getSize() * 2);
            bar.setBlockIncrement(inner * 0.8);
            bar.setValue(Math.min(bar.getValue(), overflow));
            bar.resizeRelocate(left, top + lines, inner, bar.prefHeight(-1));
        } else {
            bar.setValue(0);
        }
        clip.setWidth(getWidth());
        clip.setHeight(getHeight());
    }

    private double codeWidth() {
        return code.getLayoutBounds().getWidth();
    }
}
