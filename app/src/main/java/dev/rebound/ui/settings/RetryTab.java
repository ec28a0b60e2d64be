package dev.rebound.ui.settings;

import dev.rebound.settings.RetrySettings.RevertPolicy;
import dev.rebound.ui.settings.model.FieldModel;
import dev.rebound.ui.settings.model.RetryTabModel;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/**
 * The Retry tab: the retry group's switches, numbers and durations, each field with its reason under it. Durations are
 * typed and shown with units ("30 s", "5 min"); see {@link dev.rebound.ui.settings.model.DurationText}.
 */
final class RetryTab {
    private static final int NUMBER_COLUMNS = 10;
    private static final int DURATION_COLUMNS = 12;
    private static final String UNITS =
            "Times are written with a unit: 500 ms, 1.5 s, 30 s, 5 min, 1 min 30 s, 2 h; 90s and 1m30s work too.";

    private RetryTab() {}

    static Node build(RetryTabModel model, Subscriptions subs) {
        CheckBox enabled = new CheckBox("_Retry failed requests automatically");
        enabled.setId("retry-enabled");
        subs.bindBidirectional(enabled.selectedProperty(), model.enabledProperty());
        CheckBox fallback = new CheckBox("Fall back to _other models when one is unavailable");
        fallback.setId("retry-modelFallback");
        subs.bindBidirectional(fallback.selectedProperty(), model.modelFallbackProperty());
        ComboBox<RevertPolicy> policy = new ComboBox<>();
        policy.setId("retry-fallbackRevertPolicy");
        policy.getItems().setAll(RevertPolicy.values());
        subs.bindBidirectional(policy.valueProperty(), model.revertPolicyProperty());

        GridPane grid = Forms.grid();
        int row = 0;
        row = Forms.field(
                grid,
                row,
                "Max re_tries",
                model.maxRetries(),
                "retry-maxRetries",
                "per failed request; 0 = never retry",
                NUMBER_COLUMNS,
                subs);
        row = duration(
                grid,
                row,
                "_Base delay",
                model.baseDelay(),
                "retry-baseDelayMs",
                "first wait; doubles each retry",
                subs);
        row = duration(
                grid,
                row,
                "Max _delay",
                model.maxDelay(),
                "retry-maxDelayMs",
                "give up when asked to wait longer; 0 = no cap",
                subs);
        row = duration(
                grid,
                row,
                "Time b_udget",
                model.timeBudget(),
                "retry-maxElapsedMs",
                "for all retries of one request; 0 = none",
                subs);
        grid.add(Forms.label("Return to the first _model", policy), 0, row);
        grid.add(policy, 1, row);
        Label policyHint = new Label("cooldown-expiry: when its cooldown ends; never: stay on the fallback");
        policyHint.getStyleClass().add("field-hint");
        grid.add(policyHint, 2, row);
        row++;
        duration(
                grid,
                row,
                "Refusal _pin",
                model.refusalPin(),
                "retry-refusalPinMs",
                "how long a model that refused stays replaced",
                subs);

        Label units = new Label(UNITS);
        units.setId("retry-units");
        units.setWrapText(true);
        units.getStyleClass().add("field-hint");
        VBox body = new VBox(enabled, grid, units, fallback);
        body.getStyleClass().add("settings-tab-body");
        return body;
    }

    /** A duration field: a text field with its hint, and the accepted forms in its tooltip. */
    private static int duration(
            GridPane grid, int row, String label, FieldModel model, String id, String hint, Subscriptions subs) {
        int next = Forms.field(grid, row, label, model, id, hint, DURATION_COLUMNS, subs);
        grid.getChildren().stream()
                .filter(n -> id.equals(n.getId()) && n instanceof TextField)
                .map(TextField.class::cast)
                .forEach(input -> input.setTooltip(new Tooltip(UNITS)));
        return next;
    }
}
