package dev.rebound.ui.view;

import dev.rebound.ui.model.Ticker;
import java.time.Duration;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;

/** The production {@link Ticker}: a JavaFX timeline, so the action runs on the FX thread. */
public final class FxTicker implements Ticker {
    @Override
    public AutoCloseable every(Duration period, Runnable action) {
        Timeline timeline =
                new Timeline(new KeyFrame(javafx.util.Duration.millis(period.toMillis()), e -> action.run()));
        timeline.setCycleCount(Animation.INDEFINITE);
        timeline.play();
        return timeline::stop;
    }
}
