package dev.rebound.ui.settings.model;

import java.io.IOException;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** The Plugins tab: each plugin's id, version, state, failure and event counts, with enable/disable saved on Save. */
public final class PluginsTabModel {
    private final ObservableList<PluginRowModel> plugins = FXCollections.observableArrayList();

    PluginsTabModel(List<PluginsPort.PluginRow> rows) {
        rows.forEach(r -> plugins.add(new PluginRowModel(r)));
    }

    public ObservableList<PluginRowModel> plugins() {
        return FXCollections.unmodifiableObservableList(plugins);
    }

    boolean changed() {
        return plugins.stream().anyMatch(PluginRowModel::changed);
    }

    void save(PluginsPort port) throws IOException {
        for (PluginRowModel plugin : plugins) {
            if (plugin.changed()) {
                port.setEnabled(plugin.row().id(), plugin.enabledProperty().get());
            }
        }
    }
}
