package dev.rebound.ui.settings;

import dev.rebound.ui.settings.model.ChainRow;
import dev.rebound.ui.settings.model.ChainsTabModel;
import javafx.beans.binding.Bindings;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Fallback chains tab: the chains on the left, the selected chain's models in order on the right, with buttons to
 * add, remove and move them. A model that is not configured is flagged in the list.
 */
final class ChainsTab {
    private ChainsTab() {}

    static Node build(ChainsTabModel model, Subscriptions subs) {
        ListView<ChainRow> chains = new ListView<>(model.chains());
        chains.setId("chains-list");
        chains.setPrefHeight(200);
        chains.setCellFactory(list -> Forms.boundCell(row ->
                Bindings.when(row.problemProperty().isEmpty()).then(row.key()).otherwise(row.key() + "  ⚠")));
        TextField newKey =
                Forms.input(new TextField(), "chain-new-key", "default or openai/*", model.newKeyProperty(), subs);
        Button addChain = new Button("_Add chain");
        addChain.setId("chain-add");
        addChain.setOnAction(e -> {
            ChainRow added = model.addChain();
            if (added != null) {
                chains.getSelectionModel().select(added);
            }
        });
        Forms.enterFires(newKey, addChain);
        Label keyError = new Label();
        keyError.getStyleClass().add("field-error");
        keyError.setWrapText(true);
        subs.bind(keyError.textProperty(), model.newKeyErrorProperty());
        // Takes no room while empty, so "Remove chain" lines up with "Move up" in the other column.
        keyError.managedProperty().bind(keyError.textProperty().isNotEmpty());
        Button removeChain = new Button("Remove c_hain");
        removeChain.setId("chain-remove");
        removeChain
                .disableProperty()
                .bind(chains.getSelectionModel().selectedItemProperty().isNull());
        removeChain.setOnAction(
                e -> model.removeChain(chains.getSelectionModel().getSelectedItem()));
        VBox left = new VBox(
                Forms.label("Chain _keys", chains), chains, new HBox(6, newKey, addChain), keyError, removeChain);
        left.setSpacing(6);
        HBox.setHgrow(newKey, Priority.ALWAYS);

        ListView<String> models = new ListView<>();
        models.setId("chain-models");
        models.setPrefHeight(200);
        models.setCellFactory(list -> new ListCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().remove("model-unknown");
                if (empty || item == null) {
                    setText(null);
                } else if (model.isConfigured(item)) {
                    setText((getIndex() + 1) + ". " + item);
                } else {
                    setText((getIndex() + 1) + ". " + item + "  ⚠ not configured; skipped");
                    getStyleClass().add("model-unknown");
                }
            }
        });
        ComboBox<String> choice = new ComboBox<>(model.configuredModels());
        choice.setId("chain-model-choice");
        choice.setPromptText("Choose a configured model");
        Button addModel = new Button("Add mo_del");
        addModel.setId("chain-model-add");
        Button up = new Button("Move _up");
        up.setId("chain-up");
        Button down = new Button("Move do_wn");
        down.setId("chain-down");
        Button remove = new Button("_Remove");
        remove.setId("chain-model-remove");
        Label problem = new Label();
        problem.setWrapText(true);
        problem.getStyleClass().add("field-warning");
        Label title = Forms.label("_Models, tried in this order", models);

        VBox right = new VBox(6, title, models, new HBox(6, choice, addModel), new HBox(6, up, down, remove), problem);
        right.disableProperty()
                .bind(chains.getSelectionModel().selectedItemProperty().isNull());
        subs.listen(chains.getSelectionModel().selectedItemProperty(), row -> {
            problem.textProperty().unbind();
            if (row == null) {
                models.setItems(null);
                problem.setText("");
            } else {
                models.setItems(row.models());
                problem.textProperty().bind(row.problemProperty());
            }
        });
        addModel.setOnAction(e -> model.addModel(chains.getSelectionModel().getSelectedItem(), choice.getValue()));
        up.setOnAction(e -> models.getSelectionModel()
                .select(model.moveUp(
                        chains.getSelectionModel().getSelectedItem(),
                        models.getSelectionModel().getSelectedIndex())));
        down.setOnAction(e -> models.getSelectionModel()
                .select(model.moveDown(
                        chains.getSelectionModel().getSelectedItem(),
                        models.getSelectionModel().getSelectedIndex())));
        remove.setOnAction(e -> model.removeModel(
                chains.getSelectionModel().getSelectedItem(),
                models.getSelectionModel().getSelectedIndex()));
        up.disableProperty()
                .bind(models.getSelectionModel().selectedIndexProperty().lessThan(1));
        down.disableProperty()
                .bind(models.getSelectionModel().selectedIndexProperty().lessThan(0));
        remove.disableProperty()
                .bind(models.getSelectionModel().selectedIndexProperty().lessThan(0));
        if (!model.chains().isEmpty()) {
            chains.getSelectionModel().selectFirst();
        }

        Label intro = new Label("When a model is unavailable, Rebound tries the models of its chain in order: the "
                + "chain of the exact model, else of its provider (provider/*), else of its role (default).");
        intro.setWrapText(true);
        intro.getStyleClass().add("field-hint");
        HBox columns = new HBox(16, left, right);
        HBox.setHgrow(left, Priority.ALWAYS);
        HBox.setHgrow(right, Priority.ALWAYS);
        VBox body = new VBox(intro, columns);
        body.getStyleClass().add("settings-tab-body");
        return body;
    }
}
