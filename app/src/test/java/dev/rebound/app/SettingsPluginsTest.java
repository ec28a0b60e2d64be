package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.rebound.plugin.PluginReport;
import dev.rebound.settings.ConfigDirectory;
import dev.rebound.settings.SettingsStore;
import dev.rebound.ui.settings.model.PluginsPort.PluginRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings window's plugin list: the host's live reports, settings-only plugins, and the switch in settings.json. */
class SettingsPluginsTest {
    @TempDir
    Path dir;

    @Test
    void rowsShowTheHostsLiveStatesThenPluginsOnlyNamedInSettingsAndASwitchIsWrittenToSettingsJson() throws Exception {
        Files.writeString(
                dir.resolve("settings.json"),
                "{ \"plugins\": { \"audit\": { \"enabled\": false }, \"journal\": { \"note\": 1 } } }");
        SettingsStore store = SettingsStore.open(ConfigDirectory.at(dir), Clock.systemUTC());
        AtomicReference<List<PluginReport>> live = new AtomicReference<>(List.of(
                new PluginReport("journal", "1.2.0", PluginReport.State.ACTIVE, null, 40, 0, 0, "journal.zip"),
                new PluginReport(
                        "noisy",
                        "0.3.0",
                        PluginReport.State.DISABLED,
                        "IllegalStateException: boom",
                        5,
                        2,
                        10,
                        "noisy.jar")));
        SettingsPlugins plugins = new SettingsPlugins(store, live::get);

        assertThat(plugins.plugins())
                .extracting(
                        PluginRow::id,
                        PluginRow::version,
                        PluginRow::state,
                        PluginRow::failure,
                        PluginRow::delivered,
                        PluginRow::dropped,
                        PluginRow::enabled)
                .containsExactly(
                        tuple("journal", "1.2.0", "active", "", 40L, 0L, true),
                        tuple("noisy", "0.3.0", "disabled", "IllegalStateException: boom", 5L, 2L, true),
                        tuple("audit", "", "not loaded", "", 0L, 0L, false));

        live.set(List.of(new PluginReport("journal", "1.2.0", PluginReport.State.ACTIVE, null, 41, 0, 0, "j.zip")));
        assertThat(plugins.plugins())
                .first()
                .extracting(PluginRow::delivered)
                .as("read live each time")
                .isEqualTo(41L);

        plugins.setEnabled("audit", true);
        plugins.setEnabled("journal", false);
        assertThat(Files.readString(dir.resolve("settings.json")).replaceAll("\\s", ""))
                .contains("\"audit\":{\"enabled\":true}", "\"journal\":{\"note\":1,\"enabled\":false}");
        assertThat(plugins.plugins())
                .extracting(PluginRow::id, PluginRow::enabled)
                .containsExactly(tuple("journal", false), tuple("audit", true));
    }

    @Test
    void aPluginThatShipsWithReboundShowsItsSwitchOffUntilSwitchedOn() throws Exception {
        SettingsStore store = SettingsStore.open(ConfigDirectory.at(dir), Clock.systemUTC());
        List<PluginReport> live = List.of(new PluginReport(
                "retry-journal",
                "0.2.0",
                PluginReport.State.DISABLED,
                dev.rebound.plugin.PluginHost.OFF_UNTIL_SWITCHED_ON,
                0,
                0,
                0,
                "retry-journal.zip"));
        SettingsPlugins plugins = new SettingsPlugins(store, () -> live);

        assertThat(plugins.plugins())
                .singleElement()
                .extracting(PluginRow::enabled)
                .isEqualTo(false);

        plugins.setEnabled("retry-journal", true);

        assertThat(store.effectiveJson().at("/plugins/retry-journal/enabled").asBoolean())
                .isTrue();
        assertThat(plugins.plugins())
                .singleElement()
                .extracting(PluginRow::enabled)
                .isEqualTo(true);
    }
}
