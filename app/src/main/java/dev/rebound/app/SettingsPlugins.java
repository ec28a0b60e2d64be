package dev.rebound.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.settings.SettingsProblem;
import dev.rebound.settings.SettingsStore;
import dev.rebound.settings.SettingsUpdate;
import dev.rebound.ui.settings.model.PluginsPort;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The plugins the settings window lists while no plugin host reports live states: each plugin named under
 * {@code plugins} in settings.json and each archive in the plugins folder, with its enabled switch from settings.json
 * (enabled unless it says {@code false}). Switching writes {@code plugins.<id>.enabled} through the settings store.
 */
final class SettingsPlugins implements PluginsPort {
    private final SettingsStore settings;
    private final Path pluginsDir;

    SettingsPlugins(SettingsStore settings, Path pluginsDir) {
        this.settings = settings;
        this.pluginsDir = pluginsDir;
    }

    @Override
    public List<PluginRow> plugins() {
        JsonNode section = settings.effectiveJson().path("plugins");
        Map<String, PluginRow> rows = new LinkedHashMap<>();
        if (section.isObject()) {
            section.properties().forEach(member -> rows.put(member.getKey(), row(member.getKey(),
                    member.getValue().path("enabled").asBoolean(true), "configured in settings.json")));
        }
        for (String archive : archives()) {
            rows.putIfAbsent(archive, row(archive, true, "installed"));
        }
        return List.copyOf(rows.values());
    }

    private static PluginRow row(String id, boolean enabled, String where) {
        return new PluginRow(id, "", (enabled ? "enabled" : "disabled") + ", " + where, "", 0, 0, enabled);
    }

    /** Archive names without extension, sorted; none when the folder is missing or unreadable. */
    private List<String> archives() {
        List<String> names = new ArrayList<>();
        if (!Files.isDirectory(pluginsDir)) {
            return names;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(pluginsDir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String lower = name.toLowerCase(Locale.ROOT);
                if (lower.endsWith(".zip") || lower.endsWith(".jar")) {
                    names.add(name.substring(0, name.length() - 4));
                }
            }
        } catch (IOException e) {
            return names;
        }
        names.sort(null);
        return names;
    }

    @Override
    public void setEnabled(String id, boolean enabled) throws IOException {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.putObject("plugins").putObject(id).put("enabled", enabled);
        SettingsUpdate update = settings.update(patch);
        if (update instanceof SettingsUpdate.Rejected rejected) {
            throw new IOException(rejected.reasons().stream().map(SettingsProblem::describe)
                    .collect(Collectors.joining("; ")));
        }
    }
}
