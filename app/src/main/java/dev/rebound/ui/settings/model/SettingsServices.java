package dev.rebound.ui.settings.model;

import dev.rebound.auth.CredentialStore;
import dev.rebound.settings.SettingsStore;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What the settings window edits and calls: the settings and credentials stores, and the ports to the provider and
 * plugin layers.
 *
 * @param pluginsDir where plugin archives are installed (named when there are none)
 */
public record SettingsServices(
        SettingsStore settings,
        CredentialStore credentials,
        ConnectionTester tester,
        PluginsPort plugins,
        Path pluginsDir) {
    public SettingsServices {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(tester, "tester");
        Objects.requireNonNull(plugins, "plugins");
    }
}
