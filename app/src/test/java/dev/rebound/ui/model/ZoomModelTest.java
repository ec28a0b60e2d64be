package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The chat's zoom level: browser-like steps, bounds that hold, and a hand-written level taken to a step. */
class ZoomModelTest {

    @Test
    void zoomingInGoesThroughEveryStepAndStopsAtTheLargest() {
        ZoomModel zoom = new ZoomModel(ZoomModel.ACTUAL);
        List<Integer> seen = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            zoom.zoomIn();
            seen.add(zoom.percent());
        }
        assertThat(seen).containsExactly(110, 125, 150, 175, 200, 200, 200, 200, 200, 200);
        assertThat(zoom.canZoomInProperty().get()).isFalse();
        assertThat(zoom.canZoomOutProperty().get()).isTrue();
    }

    @Test
    void zoomingOutStopsAtTheSmallestAndResetGoesBackToTheNormalSize() {
        ZoomModel zoom = new ZoomModel(ZoomModel.ACTUAL);
        zoom.zoomOut();
        assertThat(zoom.percent()).isEqualTo(90);
        zoom.zoomOut();
        zoom.zoomOut();
        assertThat(zoom.percent()).isEqualTo(80);
        assertThat(zoom.canZoomOutProperty().get()).isFalse();
        assertThat(zoom.canZoomInProperty().get()).isTrue();

        zoom.reset();
        assertThat(zoom.percent()).isEqualTo(100);
        assertThat(zoom.canZoomOutProperty().get()).isTrue();
    }

    @Test
    void aLevelBetweenStepsIsTakenToTheNearestStep() {
        assertThat(new ZoomModel(117).percent()).isEqualTo(110);
        assertThat(new ZoomModel(118).percent()).isEqualTo(125);
        assertThat(new ZoomModel(85).percent()).as("the smaller of two as near").isEqualTo(80);
        ZoomModel zoom = new ZoomModel(140);
        assertThat(zoom.percent()).isEqualTo(150);
        zoom.set(163);
        assertThat(zoom.percent()).isEqualTo(175);
    }

    @Test
    void levelsOutOfBoundsAreBroughtWithinThem() {
        assertThat(new ZoomModel(1000).percent()).isEqualTo(200);
        assertThat(new ZoomModel(-5).percent()).isEqualTo(80);
        assertThat(ZoomModel.nearestStep(Long.MAX_VALUE)).isEqualTo(200);
        assertThat(ZoomModel.nearestStep(Long.MIN_VALUE)).isEqualTo(80);
    }
}
