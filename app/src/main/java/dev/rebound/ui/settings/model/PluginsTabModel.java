package dev.rebound.ui.settings.model;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** The plugin switches changed now, by plugin id; call on the FX thread. */
    Map<String, Boolean> switches() {
        Map<String, Boolean> switched = new LinkedHashMap<>();
        plugins.stream()
                .filter(PluginRowModel::changed)
                .forEach(p -> switched.put(p.row().id(), p.enabledProperty().get()));
        return switched;
    }

    /** Saves switches taken with {@link #switches()}; runs off the FX thread. */
    static void save(PluginsPort port, Map<String, Boolean> switches) throws IOException {
        for (Map.Entry<String, Boolean> entry : switches.entrySet()) {
            port.setEnabled(entry.getKey(), entry.getValue());
        }
    }
}
