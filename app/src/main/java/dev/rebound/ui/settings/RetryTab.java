package dev.rebound.ui.settings;

import dev.rebound.settings.RetrySettings.RevertPolicy;
import dev.rebound.ui.settings.model.RetryTabModel;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/** The Retry tab: the retry group's switches and numbers, each number with its reason under it. */
final class RetryTab {
    private static final int NUMBER_COLUMNS = 10;

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
        row = Forms.field(
                grid,
                row,
                "_Base delay (ms)",
                model.baseDelayMs(),
                "retry-baseDelayMs",
                "first wait; doubles each retry",
                NUMBER_COLUMNS,
                subs);
        row = Forms.field(
                grid,
                row,
                "Max _delay (ms)",
                model.maxDelayMs(),
                "retry-maxDelayMs",
                "give up when asked to wait longer; 0 = no cap",
                NUMBER_COLUMNS,
                subs);
        row = Forms.field(
                grid,
                row,
                "Time b_udget (ms)",
                model.maxElapsedMs(),
                "retry-maxElapsedMs",
                "for all retries of one request; 0 = none",
                NUMBER_COLUMNS,
                subs);
        grid.add(Forms.label("Return to the first _model", policy), 0, row);
        grid.add(policy, 1, row);
        Label policyHint = new Label("cooldown-expiry: when its cooldown ends; never: stay on the fallback");
        policyHint.getStyleClass().add("field-hint");
        grid.add(policyHint, 2, row);
        row++;
        Forms.field(
                grid,
                row,
                "Refusal _pin (ms)",
                model.refusalPinMs(),
                "retry-refusalPinMs",
                "how long a model that refused stays replaced",
                NUMBER_COLUMNS,
                subs);

        VBox body = new VBox(enabled, grid, fallback);
        body.getStyleClass().add("settings-tab-body");
        return body;
    }
}
