package dev.rebound.ui.view;

import atlantafx.base.theme.Styles;
import dev.rebound.ui.model.AssistantItem;
import dev.rebound.ui.model.RetryRecord;
import dev.rebound.ui.model.RetryRecordText;
import javafx.beans.value.ChangeListener;
import javafx.scene.AccessibleRole;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The quiet line under a reply's header that says what the reply went through ("Recovered after 3 retries · 4.6 s ·
 * overloaded (529)"); a click (or Enter/Space) unfolds the chain's timeline, one line per call, with Copy diagnostics.
 * Absent for a reply its first call answered, and then empty: its controls are made with the first record, since a
 * row is rebuilt whenever the list measures or reuses it. Whether it is unfolded lives in the reply, so it survives
 * the list reusing the cell. {@link #release()} removes the listeners.
 */
final class RetryRecordBox extends VBox {
    private final AssistantItem item;
    private final RetryRecordText words;
    private Hyperlink toggle;
    private VBox timeline;
    private final ChangeListener<Object> changed = (obs, old, now) -> refresh();

    RetryRecordBox(AssistantItem item, RetryRecordText words) {
        this.item = item;
        this.words = words;
        getStyleClass().add("retry-record");
        managedProperty().bind(visibleProperty());
        item.retryRecordProperty().addListener(changed);
        item.recordOpenProperty().addListener(changed);
        refresh();
    }

    /** Stops following the reply (the cell shows another row). */
    void release() {
        item.retryRecordProperty().removeListener(changed);
        item.recordOpenProperty().removeListener(changed);
    }

    /** The line that folds and unfolds the timeline (for tests), or null while the reply has no record. */
    Hyperlink toggle() {
        return toggle;
    }

    private void refresh() {
        RetryRecord record = item.retryRecordProperty().get();
        setVisible(record != null);
        if (record == null) {
            if (timeline != null) {
                timeline.getChildren().clear();
            }
            return;
        }
        if (toggle == null) {
            toggle = new Hyperlink();
            toggle.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED, "retry-record-toggle");
            toggle.setOnAction(e ->
                    item.recordOpenProperty().set(!item.recordOpenProperty().get()));
            timeline = new VBox();
            timeline.getStyleClass().add("retry-timeline");
            timeline.managedProperty().bind(timeline.visibleProperty());
            getChildren().addAll(toggle, timeline);
        }
        timeline.getChildren().clear();
        boolean open = item.recordOpenProperty().get();
        String summary = words.summary(record);
        toggle.setText((open ? "▾ " : "▸ ") + "↻ " + summary);
        toggle.setAccessibleText(words.accessibleSummary(record));
        toggle.setAccessibleHelp(open ? "Timeline shown" : "Timeline hidden");
        toggle.setTooltip(new Tooltip(open ? "Hide the timeline" : "Show each attempt and what decided the retries"));
        timeline.setVisible(open);
        if (!open) {
            return;
        }
        for (RetryRecordText.Line line : words.timeline(record)) {
            Label head = wrapping(line.head(), "retry-timeline-head");
            timeline.getChildren().add(head);
            if (!line.decision().isEmpty()) {
                timeline.getChildren().add(wrapping("→ " + line.decision(), "retry-timeline-decision"));
            }
            if (!line.message().isEmpty()) {
                timeline.getChildren().add(wrapping(line.message(), "retry-timeline-message"));
            }
        }
        Button copy = new Button("Copy diagnostics");
        copy.getStyleClass().addAll(Styles.SMALL, "retry-copy-diagnostics");
        copy.setTooltip(new Tooltip("Copy this timeline as Markdown for a bug report (key labels only, never a key)"));
        copy.setAccessibleText("Copy diagnostics of this retry record");
        copy.setOnAction(e -> {
            ClipboardContent content = new ClipboardContent();
            content.putString(words.diagnostics(record));
            Clipboard.getSystemClipboard().setContent(content);
            copy.setText("Copied");
        });
        timeline.getChildren().add(copy);
    }

    private static Label wrapping(String text, String styleClass) {
        Label label = new Label(text);
        label.setWrapText(true);
        label.setMinHeight(Region.USE_PREF_SIZE);
        label.getStyleClass().addAll(Styles.TEXT_SMALL, styleClass);
        label.setAccessibleRole(AccessibleRole.TEXT);
        return label;
    }
}
