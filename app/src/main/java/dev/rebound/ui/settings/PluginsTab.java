package dev.rebound.ui.settings;

import dev.rebound.ui.settings.model.PluginRowModel;
import dev.rebound.ui.settings.model.PluginsTabModel;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.cell.CheckBoxTableCell;
import javafx.scene.layout.VBox;

/** The Plugins tab: one row per plugin with its state, failure and event counts, and a switch to enable it. */
final class PluginsTab {
    private PluginsTab() {}

    static Node build(PluginsTabModel model, String pluginsDir) {
        TableView<PluginRowModel> table = new TableView<>(model.plugins());
        table.setId("plugins-table");
        table.setEditable(true);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Label empty =
                new Label("No plugins are installed. Put plugin archives in " + pluginsDir + " and restart Rebound.");
        empty.setWrapText(true);
        table.setPlaceholder(empty);
        TableColumn<PluginRowModel, Boolean> enabled = new TableColumn<>("Enabled");
        enabled.setCellValueFactory(c -> c.getValue().enabledProperty());
        enabled.setCellFactory(CheckBoxTableCell.forTableColumn(enabled));
        enabled.setEditable(true);
        table.getColumns().add(enabled);
        table.getColumns().add(text("Plugin", r -> r.row().id()));
        table.getColumns()
                .add(text(
                        "Version",
                        r -> r.row().version().isEmpty() ? "—" : r.row().version()));
        table.getColumns().add(text("State", r -> r.row().state()));
        table.getColumns().add(text("Delivered", r -> Long.toString(r.row().delivered())));
        table.getColumns().add(text("Dropped", r -> Long.toString(r.row().dropped())));
        TableColumn<PluginRowModel, String> note = new TableColumn<>("Failure / note");
        note.setCellValueFactory(c -> c.getValue().noteBinding());
        note.setSortable(false);
        table.getColumns().add(note);
        Label hint = new Label("Enabling or disabling a plugin is saved to settings.json (plugins → id → enabled) "
                + "and applies on the next start.");
        hint.setWrapText(true);
        hint.getStyleClass().add("field-hint");
        VBox body = new VBox(hint, table);
        body.getStyleClass().add("settings-tab-body");
        return body;
    }

    private static TableColumn<PluginRowModel, String> text(String title, Function<PluginRowModel, String> value) {
        TableColumn<PluginRowModel, String> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> (ObservableValue<String>) new ReadOnlyStringWrapper(value.apply(c.getValue())));
        column.setSortable(false);
        column.setEditable(false);
        return column;
    }
}
