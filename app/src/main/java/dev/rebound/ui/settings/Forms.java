package dev.rebound.ui.settings;

import atlantafx.base.theme.Styles;
import dev.rebound.ui.settings.model.FieldModel;
import java.util.function.Function;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Region;

/** Small builders shared by the tabs: a labelled field with its hint and its reason, bound to a {@link FieldModel}. */
final class Forms {
    private Forms() {}

    /** A label with a mnemonic ({@code "Max _retries"}) that focuses {@code target}. */
    static Label label(String text, Node target) {
        Label label = new Label(text);
        label.setMnemonicParsing(true);
        label.setLabelFor(target);
        return label;
    }

    /**
     * Adds a row to a form grid: label, text field, hint; under it the field's reason, shown only when there is one.
     *
     * @param id the field's node id; its reason label gets {@code id + "-error"}
     * @param columns the width of the field in characters
     * @return the row after the two used
     */
    static int field(
            GridPane grid,
            int row,
            String label,
            FieldModel model,
            String id,
            String hint,
            int columns,
            Subscriptions subs) {
        TextField input = new TextField();
        input.setId(id);
        input.setPrefColumnCount(columns);
        subs.bindBidirectional(input.textProperty(), model.textProperty());
        // A valid entry is shown in its canonical form once the field is left ("90s" becomes "1 min 30 s").
        input.focusedProperty().addListener((obs, was, focused) -> {
            if (!focused) {
                model.tidy();
            }
        });
        grid.add(label(label, input), 0, row);
        grid.add(input, 1, row);
        if (hint != null) {
            Label hintLabel = new Label(hint);
            hintLabel.getStyleClass().add("field-hint");
            grid.add(hintLabel, 2, row);
        }
        Label error = errorLabel(id + "-error", model, input, subs);
        grid.add(error, 1, row + 1, 2, 1);
        input.setMaxWidth(Region.USE_PREF_SIZE);
        return row + 2;
    }

    /** The reason label of a field: red, shown only while the field is invalid; marks the input as invalid too. */
    static Label errorLabel(String id, FieldModel model, Node input, Subscriptions subs) {
        Label error = new Label();
        error.setId(id);
        error.setWrapText(true);
        error.getStyleClass().add("field-error");
        subs.bind(error.textProperty(), model.errorProperty());
        error.visibleProperty().bind(model.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        subs.listen(model.errorProperty(), now -> input.pseudoClassStateChanged(Styles.STATE_DANGER, !now.isEmpty()));
        input.pseudoClassStateChanged(
                Styles.STATE_DANGER, !model.errorProperty().get().isEmpty());
        return error;
    }

    /** A list cell whose text follows a property of its item (a chain's key with its flag, a provider's key). */
    static <T> ListCell<T> boundCell(Function<T, ObservableValue<String>> text) {
        return new ListCell<>() {
            @Override
            protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                textProperty().unbind();
                if (empty || item == null) {
                    setText(null);
                } else {
                    textProperty().bind(text.apply(item));
                }
            }
        };
    }

    /** A text field with an id and a prompt, bound both ways to a view-model's text. */
    static TextField input(TextField field, String id, String prompt, StringProperty text, Subscriptions subs) {
        field.setId(id);
        field.setPromptText(prompt);
        subs.bindBidirectional(field.textProperty(), text);
        return field;
    }

    /** Enter in {@code field} presses {@code button} instead of the window's default button (Save). */
    static void enterFires(TextField field, javafx.scene.control.Button button) {
        field.setOnAction(e -> {
            button.fire();
            e.consume();
        });
    }

    static GridPane grid() {
        GridPane grid = new GridPane();
        grid.getStyleClass().add("settings-grid");
        return grid;
    }

    static Label section(String text) {
        Label label = new Label(text);
        label.getStyleClass().addAll("settings-section", Styles.TITLE_4);
        return label;
    }
}
