package dev.rebound.bench;

import java.util.concurrent.CountDownLatch;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/** The least JavaFX window, started as Rebound starts its own ({@code Platform.startup}): a stage with one label. */
public final class MinimalWindow {
    private MinimalWindow() {}

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch closed = new CountDownLatch(1);
        Platform.startup(() -> {
            Stage stage = new Stage();
            stage.setTitle("Minimal");
            stage.setScene(new Scene(new Label("Hello"), 400, 200));
            stage.setOnHidden(e -> closed.countDown());
            stage.show();
        });
        closed.await();
        Platform.exit();
    }
}
