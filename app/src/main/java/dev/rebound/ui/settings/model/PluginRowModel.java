package dev.rebound.ui.settings.model;

import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;

/** One plugin row of the Plugins tab: what the host reports, and the enabled switch being edited. */
public final class PluginRowModel {
    private final PluginsPort.PluginRow row;
    private final BooleanProperty enabled;
    private final StringBinding note;

    PluginRowModel(PluginsPort.PluginRow row) {
        this.row = row;
        this.enabled = new SimpleBooleanProperty(this, "enabled", row.enabled());
        this.note = Bindings.createStringBinding(
                () -> enabled.get() != row.enabled()
                        ? (enabled.get()
                                ? "will be enabled; applies on next start"
                                : "will be disabled; applies on next start")
                        : row.failure(),
                enabled);
    }

    public PluginsPort.PluginRow row() {
        return row;
    }

    public BooleanProperty enabledProperty() {
        return enabled;
    }

    /** "applies on next start" once switched, else the plugin's failure (empty when none). */
    public StringBinding noteBinding() {
        return note;
    }

    boolean changed() {
        return enabled.get() != row.enabled();
    }
}
