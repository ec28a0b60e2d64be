package dev.rebound.ui.model;

import java.util.List;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;

/**
 * The size of the chat's text, in percent of the normal size: one of the steps of {@link #STEPS}, zoomed in and out as
 * a browser does, between {@link #MIN} and {@link #MAX}. The view has a style class per step. Confined to the FX
 * thread.
 */
public final class ZoomModel {
    /** The levels zooming in and out stops at. */
    public static final List<Integer> STEPS = List.of(80, 90, 100, 110, 125, 150, 175, 200);
    /** The normal size. */
    public static final int ACTUAL = 100;
    /** The smallest level. */
    public static final int MIN = STEPS.getFirst();
    /** The largest level. */
    public static final int MAX = STEPS.getLast();

    private final ReadOnlyIntegerWrapper percent = new ReadOnlyIntegerWrapper(this, "percent", ACTUAL);
    private final ReadOnlyBooleanWrapper canZoomIn = new ReadOnlyBooleanWrapper(this, "canZoomIn", true);
    private final ReadOnlyBooleanWrapper canZoomOut = new ReadOnlyBooleanWrapper(this, "canZoomOut", true);

    /** Starts at the step nearest {@code percent}. */
    public ZoomModel(int percent) {
        set(percent);
    }

    /** The step nearest {@code percent} (the smaller of two as near); {@link #MIN} or {@link #MAX} beyond them. */
    public static int nearestStep(long percent) {
        int within = Math.clamp(percent, MIN, MAX);
        int nearest = MIN;
        for (int step : STEPS) {
            if (Math.abs(step - within) < Math.abs(nearest - within)) {
                nearest = step;
            }
        }
        return nearest;
    }

    /** The level, in percent (100 is the normal size). */
    public ReadOnlyIntegerProperty percentProperty() {
        return percent.getReadOnlyProperty();
    }

    public int percent() {
        return percent.get();
    }

    /** Whether there is a larger step. */
    public ReadOnlyBooleanProperty canZoomInProperty() {
        return canZoomIn.getReadOnlyProperty();
    }

    /** Whether there is a smaller step. */
    public ReadOnlyBooleanProperty canZoomOutProperty() {
        return canZoomOut.getReadOnlyProperty();
    }

    /** Sets the level to the step nearest {@code level}. */
    public void set(int level) {
        percent.set(nearestStep(level));
        canZoomIn.set(percent.get() < MAX);
        canZoomOut.set(percent.get() > MIN);
    }

    /** The next larger step; nothing at {@link #MAX}. */
    public void zoomIn() {
        STEPS.stream().filter(step -> step > percent.get()).findFirst().ifPresent(this::set);
    }

    /** The next smaller step; nothing at {@link #MIN}. */
    public void zoomOut() {
        STEPS.reversed().stream()
                .filter(step -> step < percent.get())
                .findFirst()
                .ifPresent(this::set);
    }

    /** Back to the normal size. */
    public void reset() {
        set(ACTUAL);
    }
}
