package dev.rebound.ui.view;

import atlantafx.base.theme.Styles;
import dev.rebound.ui.model.AssistantItem;
import javafx.beans.value.ChangeListener;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The model's reasoning above its reply: a line that says how much there is, which shows or hides the text when
 * clicked (hidden at first: it is the answer people came for). Absent while there is none. Updates are coalesced to
 * one per FX pulse; {@link #release()} removes the listener.
 */
final class ThinkingBox extends VBox {
    private final AssistantItem item;
    private final Hyperlink toggle = new Hyperlink();
    private final Label text = new Label();
    private final PulseCoalescer refresh = new PulseCoalescer(this::refresh);
    private final ChangeListener<Number> grew = (obs, old, now) -> refresh.request();

    ThinkingBox(AssistantItem item) {
        this.item = item;
        getStyleClass().add("thinking");
        toggle.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED, "thinking-toggle");
        toggle.setOnAction(e -> {
            text.setVisible(!text.isVisible());
            refresh();
        });
        text.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED, "thinking-text");
        text.setWrapText(true);
        text.setMinHeight(Region.USE_PREF_SIZE);
        text.setVisible(false);
        text.managedProperty().bind(text.visibleProperty());
        managedProperty().bind(visibleProperty());
        getChildren().addAll(toggle, text);
        item.thinkingLengthProperty().addListener(grew);
        refresh();
    }

    /** Stops following the reply (the cell shows another row). */
    void release() {
        refresh.cancel();
        item.thinkingLengthProperty().removeListener(grew);
    }

    private void refresh() {
        int length = item.thinkingLengthProperty().get();
        setVisible(length > 0);
        toggle.setText((text.isVisible() ? "▾ " : "▸ ") + "Thinking · " + "%,d".formatted(length) + " characters");
        if (text.isVisible()) {
            text.setText(item.thinking().toString());
        }
    }
}
