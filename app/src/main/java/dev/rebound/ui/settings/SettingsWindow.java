package dev.rebound.ui.settings;

import dev.rebound.ui.settings.model.SettingsViewModel;
import java.nio.file.Path;
import java.util.Objects;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The settings window: a stage owned by the chat window but not modal (the chat stays usable), with the tabs Retry,
 * Fallback chains, Providers and credentials, and Plugins over one {@link SettingsViewModel}. Save is disabled while
 * anything is invalid and closes the window once everything is written; Cancel (or Esc, or closing the window)
 * discards the edits.
 */
public final class SettingsWindow {
    private final Stage stage = new Stage();
    private final SettingsViewModel model;
    private final TabPane tabs;
    private final Subscriptions subs = new Subscriptions();

    private SettingsWindow(Window owner, SettingsViewModel model, Path pluginsDir) {
        this.model = model;
        tabs = new TabPane(
                tab("Retry", "tab-retry", RetryTab.build(model.retry(), subs)),
                tab("Fallback chains", "tab-chains", ChainsTab.build(model.chains(), subs)),
                tab("Providers and credentials", "tab-providers", ProvidersTab.build(model.providers(), subs)),
                tab("Chat", "tab-chat", ChatTab.build(model.chat(), subs)),
                tab("Plugins", "tab-plugins", PluginsTab.build(model.plugins(), pluginsDir.toString())));
        tabs.setId("settings-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);

        Label message = new Label();
        message.setId("settings-message");
        message.setWrapText(true);
        message.getStyleClass().add("settings-message");
        subs.bind(message.textProperty(), model.messageProperty());
        Button save = new Button("_Save");
        save.setId("settings-save");
        save.setDefaultButton(true);
        save.disableProperty().bind(model.canSaveProperty().not());
        save.setOnAction(e -> model.save());
        Button cancel = new Button("_Cancel");
        cancel.setId("settings-cancel");
        cancel.setCancelButton(true);
        cancel.setOnAction(e -> stage.hide());
        // While a save runs nothing may change or be discarded: what is written is what the window shows.
        subs.bind(tabs.disableProperty(), model.editableProperty().not());
        subs.bind(cancel.disableProperty(), model.editableProperty().not());
        HBox footer = new HBox(message, save, cancel);
        footer.getStyleClass().add("settings-footer");
        HBox.setHgrow(message, Priority.ALWAYS);
        message.setMaxWidth(Double.MAX_VALUE);

        subs.listen(model.stateProperty(), state -> {
            message.getStyleClass().remove("failed");
            if (state == SettingsViewModel.State.SAVED) {
                stage.hide();
            } else if (state == SettingsViewModel.State.EDITING
                    && !model.messageProperty().get().isEmpty()) {
                message.getStyleClass().add("failed");
            }
        });

        BorderPane root = new BorderPane(tabs);
        root.setBottom(footer);
        root.getStyleClass().add("settings-root");
        Scene scene = new Scene(root);
        scene.getStylesheets()
                .add(Objects.requireNonNull(SettingsWindow.class.getResource("settings.css"), "settings.css")
                        .toExternalForm());
        stage.setScene(scene);
        stage.setTitle("Rebound settings");
        stage.initOwner(owner);
        stage.setOnHidden(e -> subs.release());
        stage.setOnCloseRequest(e -> {
            if (!model.editableProperty().get()) {
                e.consume();
            }
        });
    }

    private static Tab tab(String title, String id, javafx.scene.Node content) {
        Tab tab = new Tab(title, content);
        tab.setId(id);
        return tab;
    }

    /** Builds the window over a fresh view-model and shows it; call on the FX thread. */
    public static SettingsWindow show(Window owner, SettingsViewModel model, Path pluginsDir) {
        SettingsWindow window = new SettingsWindow(owner, model, pluginsDir);
        window.stage.show();
        return window;
    }

    /** Shows the tab with this id ({@code tab-retry}, {@code tab-chains}, {@code tab-providers}, {@code tab-chat}, {@code tab-plugins}). */
    public void select(String tabId) {
        tabs.getTabs().stream()
                .filter(t -> tabId.equals(t.getId()))
                .findFirst()
                .ifPresent(t -> tabs.getSelectionModel().select(t));
    }

    public Stage stage() {
        return stage;
    }

    public SettingsViewModel model() {
        return model;
    }
}
