package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.settings.ConfigDirectory;
import dev.rebound.settings.SettingsStore;
import dev.rebound.ui.settings.model.PluginsPort.PluginRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plugin list read from settings.json and the plugins folder, and the switch written back to settings.json. */
class SettingsPluginsTest {
    @TempDir
    Path dir;

    @Test
    void pluginsComeFromSettingsAndArchivesAndASwitchIsWrittenToSettingsJson() throws Exception {
        Files.writeString(dir.resolve("settings.json"), "{ \"plugins\": { \"audit\": { \"enabled\": false } } }");
        Files.createDirectories(dir.resolve("plugins"));
        Files.writeString(dir.resolve("plugins/notifier.zip"), "not read here");
        Files.writeString(dir.resolve("plugins/readme.txt"), "ignored");
        SettingsStore store = SettingsStore.open(ConfigDirectory.at(dir), Clock.systemUTC());
        SettingsPlugins plugins = new SettingsPlugins(store, dir.resolve("plugins"));

        assertThat(plugins.plugins()).extracting(PluginRow::id, PluginRow::enabled)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("audit", false),
                        org.assertj.core.groups.Tuple.tuple("notifier", true));
        plugins.setEnabled("audit", true);
        plugins.setEnabled("notifier", false);

        assertThat(Files.readString(dir.resolve("settings.json")).replaceAll("\\s", ""))
                .contains("\"audit\":{\"enabled\":true}", "\"notifier\":{\"enabled\":false}");
        assertThat(plugins.plugins()).extracting(PluginRow::enabled).containsExactly(true, false);
    }
}
