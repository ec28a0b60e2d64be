package dev.rebound.ui.settings;

import dev.rebound.settings.ProviderApi;
import dev.rebound.ui.settings.model.CredentialRow;
import dev.rebound.ui.settings.model.FieldModel;
import dev.rebound.ui.settings.model.ProviderPreset;
import dev.rebound.ui.settings.model.ProviderRow;
import dev.rebound.ui.settings.model.ProvidersTabModel;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.PasswordField;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * The Providers and credentials tab: the providers on the left, added from a menu of known kinds, and the selected
 * one's form on the right with the fields its api has (key, api, base URL, models, extra headers and query parameters,
 * the Responses API's store flag, Test connection; the built-in simulator has no URL, headers or connection to test);
 * below, the credentials with their keys masked and a form to add one.
 */
final class ProvidersTab {
    private static final int TEXT_COLUMNS = 14;
    private static final int URL_COLUMNS = 28;
    private final ProvidersTabModel model;
    private final Subscriptions subs;
    private final StackPane formHolder = new StackPane();
    private Subscriptions formSubs = new Subscriptions();

    private ProvidersTab(ProvidersTabModel model, Subscriptions subs) {
        this.model = model;
        this.subs = subs;
    }

    static Node build(ProvidersTabModel model, Subscriptions subs) {
        return new ProvidersTab(model, subs).build();
    }

    private Node build() {
        ListView<ProviderRow> list = new ListView<>(model.providers());
        list.setId("providers-list");
        list.setPrefHeight(180);
        list.setPrefWidth(180);
        list.setCellFactory(v -> Forms.boundCell(row -> row.key().textProperty()));
        MenuButton add = new MenuButton("Add _provider");
        add.setId("provider-add");
        for (ProviderPreset preset : ProviderPreset.ALL) {
            MenuItem item = new MenuItem(preset.name());
            item.setId("provider-add-" + (preset.key().isEmpty() ? "other" : preset.key()));
            item.setOnAction(e -> list.getSelectionModel().select(model.addProvider(preset)));
            add.getItems().add(item);
        }
        Button remove = new Button("Remove provide_r");
        remove.setId("provider-remove");
        remove.disableProperty()
                .bind(list.getSelectionModel().selectedItemProperty().isNull());
        remove.setOnAction(e -> model.removeProvider(list.getSelectionModel().getSelectedItem()));
        VBox left = new VBox(6, Forms.label("Configured provi_ders", list), list, new HBox(6, add, remove));
        subs.listen(list.getSelectionModel().selectedItemProperty(), this::showForm);
        subs.onRelease(() -> formSubs.release());
        subs.bind(
                formHolder.disableProperty(),
                list.getSelectionModel().selectedItemProperty().isNull());
        list.getSelectionModel().selectFirst();
        showForm(list.getSelectionModel().getSelectedItem());

        HBox top = new HBox(16, left, formHolder);
        HBox.setHgrow(formHolder, Priority.ALWAYS);
        VBox body = new VBox(Forms.section("Providers"), top, Forms.section("Credentials"), credentials());
        body.getStyleClass().add("settings-tab-body");
        ScrollPane scroll = new ScrollPane(body);
        scroll.setFitToWidth(true);
        return scroll;
    }

    private void showForm(ProviderRow row) {
        formSubs.release();
        formSubs = new Subscriptions();
        if (row == null) {
            formHolder.getChildren().setAll(new Label("Add a provider, or choose one on the left."));
            return;
        }
        GridPane grid = Forms.grid();
        int r = Forms.field(
                grid,
                0,
                "_Key",
                row.key(),
                "provider-key",
                "first part of model names: key/model",
                TEXT_COLUMNS,
                formSubs);
        ComboBox<ProviderApi> api = new ComboBox<>();
        api.setId("provider-api");
        api.getItems().setAll(ProviderApi.values());
        formSubs.bindBidirectional(api.valueProperty(), row.apiProperty());
        grid.add(Forms.label("_API", api), 0, r);
        grid.add(api, 1, r++);
        int httpFrom = r;
        r = Forms.field(
                grid,
                r,
                "Base _URL",
                row.baseUrl(),
                "provider-baseUrl",
                "like https://api.openai.com/v1",
                URL_COLUMNS,
                formSubs);
        int httpTo = r;
        r = Forms.field(
                grid,
                r,
                "_Models",
                row.models(),
                "provider-models",
                "model ids, comma-separated",
                URL_COLUMNS,
                formSubs);
        int extrasFrom = r;
        r = area(
                grid,
                r,
                "_Headers",
                row.headers(),
                "provider-headers",
                "Name: value, one per line; ${VAR} = variable, <key> = the provider's key");
        r = area(grid, r, "_Query", row.query(), "provider-query", "name=value, one per line (Azure: api-version)");
        CheckBox store = new CheckBox("The server _stores replies (send only what is new each turn)");
        store.setId("provider-store");
        formSubs.bindBidirectional(store.selectedProperty(), row.storeProperty());
        grid.add(store, 1, r++, 2, 1);
        int extrasTo = r;
        Button test = new Button("_Test connection");
        test.setId("provider-test");
        formSubs.bind(test.disableProperty(), row.testingProperty());
        test.setOnAction(e -> model.testConnection(row));
        Label result = new Label();
        result.setId("provider-test-result");
        result.setWrapText(true);
        formSubs.bind(result.textProperty(), row.testResultProperty());
        formSubs.listen(row.testResultProperty(), text -> styleResult(result, text));
        styleResult(result, row.testResultProperty().get());
        grid.add(test, 1, r);
        grid.add(result, 1, r + 1, 2, 1);
        // Only the fields of the provider's kind show: the simulator has no URL, headers or connection to test, and
        // only the Responses API stores replies. Reason labels keep their own visibility (shown while invalid).
        Runnable showFieldsOfKind = () -> {
            boolean http = row.speaksHttp();
            for (Node node : grid.getChildren()) {
                int at = GridPane.getRowIndex(node) == null ? 0 : GridPane.getRowIndex(node);
                boolean ofKind = (at >= httpFrom && at < httpTo) || (at >= extrasFrom && at < extrasTo) || node == test;
                if (ofKind && !node.visibleProperty().isBound()) {
                    node.setVisible(http && (node != store || row.apiProperty().get() == ProviderApi.OPENAI_RESPONSES));
                    node.setManaged(node.isVisible());
                }
            }
        };
        formSubs.listen(row.apiProperty(), kind -> showFieldsOfKind.run());
        showFieldsOfKind.run();
        formHolder.getChildren().setAll(grid);
    }

    /** A multi-line field with its label, hint and reason; returns the row after the two used. */
    private int area(GridPane grid, int r, String label, FieldModel field, String id, String hint) {
        TextArea input = new TextArea();
        input.setId(id);
        input.setPrefColumnCount(URL_COLUMNS);
        input.setPrefRowCount(2);
        formSubs.bindBidirectional(input.textProperty(), field.textProperty());
        grid.add(Forms.label(label, input), 0, r);
        grid.add(input, 1, r);
        Label hintLabel = new Label(hint);
        hintLabel.getStyleClass().add("field-hint");
        hintLabel.setWrapText(true);
        hintLabel.setMaxWidth(220);
        grid.add(hintLabel, 2, r);
        grid.add(Forms.errorLabel(id + "-error", field, input, formSubs), 1, r + 1, 2, 1);
        return r + 2;
    }

    private static void styleResult(Label label, String text) {
        label.getStyleClass().removeAll("test-ok", "test-failed");
        if (text.startsWith("✔")) {
            label.getStyleClass().add("test-ok");
        } else if (text.startsWith("✖")) {
            label.getStyleClass().add("test-failed");
        }
    }

    private Node credentials() {
        TableView<CredentialRow> table = new TableView<>(model.credentials());
        table.setId("credentials-table");
        table.setPrefHeight(170);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(new Label("No credentials yet: add a key below."));
        table.getColumns().add(column("Provider", CredentialRow::provider));
        table.getColumns().add(column("Label", CredentialRow::label));
        table.getColumns().add(column("Key", r -> r.display() + (r.isNew() ? "  (new, saved on Save)" : "")));
        Button remove = new Button("R_emove credential");
        remove.setId("credential-remove");
        remove.disableProperty()
                .bind(table.getSelectionModel().selectedItemProperty().isNull());
        remove.setOnAction(e -> {
            model.removeCredential(table.getSelectionModel().getSelectedItem());
            table.refresh();
        });

        ComboBox<String> provider = new ComboBox<>();
        provider.setId("credential-provider");
        Runnable refreshProviders = () -> provider.getItems()
                .setAll(model.providers().stream()
                        .map(p -> p.key().text().strip())
                        .filter(k -> !k.isEmpty())
                        .toList());
        refreshProviders.run();
        provider.setOnShowing(e -> refreshProviders.run());
        subs.bindBidirectional(provider.valueProperty(), model.credentialProviderProperty());
        TextField label = Forms.input(
                new TextField(), "credential-label", "label, like work", model.credentialLabelProperty(), subs);
        CheckBox fromEnv = new CheckBox("From an environment _variable");
        fromEnv.setId("credential-from-env");
        subs.bindBidirectional(fromEnv.selectedProperty(), model.credentialFromEnvProperty());
        TextField key =
                Forms.input(new PasswordField(), "credential-key", "API key", model.credentialValueProperty(), subs);
        TextField variable = Forms.input(
                new TextField(),
                "credential-env",
                "variable, like OPENAI_API_KEY",
                model.credentialValueProperty(),
                subs);
        key.visibleProperty().bind(fromEnv.selectedProperty().not());
        key.managedProperty().bind(key.visibleProperty());
        variable.visibleProperty().bind(fromEnv.selectedProperty());
        variable.managedProperty().bind(variable.visibleProperty());
        Button addCredential = new Button("Add ke_y");
        addCredential.setId("credential-add");
        addCredential.setOnAction(e -> model.addCredential());
        Forms.enterFires(label, addCredential);
        Forms.enterFires(key, addCredential);
        Forms.enterFires(variable, addCredential);
        Label error = new Label();
        error.setId("credential-error");
        error.setWrapText(true);
        error.getStyleClass().add("field-error");
        subs.bind(error.textProperty(), model.credentialErrorProperty());

        HBox form = new HBox(6, provider, label, key, variable, fromEnv, addCredential);
        form.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        HBox.setHgrow(key, Priority.ALWAYS);
        HBox.setHgrow(variable, Priority.ALWAYS);
        Label note = new Label("Keys are saved to credentials.json (readable by you only), never to settings.json, "
                + "and shown with at most their last 4 characters.");
        note.setWrapText(true);
        note.getStyleClass().add("field-hint");
        // The hint sits right under the Key field it explains.
        return new VBox(6, table, remove, form, note, error);
    }

    private static TableColumn<CredentialRow, String> column(
            String title, java.util.function.Function<CredentialRow, String> value) {
        TableColumn<CredentialRow, String> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyStringWrapper(value.apply(c.getValue())));
        column.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                getStyleClass().remove("credential-removed");
                CredentialRow row =
                        empty || getTableRow() == null ? null : getTableRow().getItem();
                if (row != null && row.removedProperty().get()) {
                    getStyleClass().add("credential-removed");
                }
            }
        });
        column.setSortable(false);
        return column;
    }
}
