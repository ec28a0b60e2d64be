package dev.rebound.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.files.FileProblem;
import dev.rebound.plugin.PluginHost;
import dev.rebound.plugin.PluginReport;
import dev.rebound.settings.SettingsStore;
import dev.rebound.settings.SettingsUpdate;
import dev.rebound.ui.settings.model.PluginsPort;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The plugins the settings window lists: every archive the running plugin host found, with its live state, failure and
 * delivered/dropped counts, then each plugin named under {@code plugins} in settings.json that this run did not load
 * (state {@code not loaded}: its archive is gone, or Rebound started with {@code --no-plugins}). The enabled switch comes
 * from settings.json: on unless it says {@code false}, except for the package's own plugins, off until it says
 * {@code true} ({@link PluginHost#OFF_UNTIL_SWITCHED_ON}); switching writes
 * {@code plugins.<id>.enabled} through the settings store and applies at the next start.
 */
final class SettingsPlugins implements PluginsPort {
    private final SettingsStore settings;
    private final Supplier<List<PluginReport>> live;

    SettingsPlugins(SettingsStore settings, Supplier<List<PluginReport>> live) {
        this.settings = settings;
        this.live = live;
    }

    @Override
    public List<PluginRow> plugins() {
        JsonNode section = settings.effectiveJson().path("plugins");
        Map<String, PluginRow> rows = new LinkedHashMap<>();
        for (PluginReport report : live.get()) {
            rows.putIfAbsent(
                    report.id(),
                    new PluginRow(
                            report.id(),
                            report.version() == null ? "" : report.version(),
                            report.state().wireName(),
                            report.failure() == null ? "" : report.failure(),
                            report.delivered(),
                            report.dropped(),
                            enabled(section, report.id(), !PluginHost.OFF_UNTIL_SWITCHED_ON.equals(report.failure()))));
        }
        if (section.isObject()) {
            section.properties()
                    .forEach(member -> rows.putIfAbsent(
                            member.getKey(),
                            new PluginRow(
                                    member.getKey(),
                                    "",
                                    "not loaded",
                                    "",
                                    0,
                                    0,
                                    enabled(section, member.getKey(), true))));
        }
        return List.copyOf(rows.values());
    }

    private static boolean enabled(JsonNode section, String id, boolean byDefault) {
        return section.path(id).path("enabled").asBoolean(byDefault);
    }

    @Override
    public void setEnabled(String id, boolean enabled) throws IOException {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.putObject("plugins").putObject(id).put("enabled", enabled);
        SettingsUpdate update = settings.update(patch);
        if (update instanceof SettingsUpdate.Rejected rejected) {
            throw new IOException(
                    rejected.reasons().stream().map(FileProblem::describe).collect(Collectors.joining("; ")));
        }
    }
}
