package dev.rebound.plugintest;

import dev.rebound.api.PluginContext;
import java.nio.file.Path;
import java.util.Map;

/**
 * A plugin context as the host builds one: the plugin's settings section is also found under
 * {@code plugins → <id>} of the whole settings.
 */
public record TestPluginContext(
        String pluginId,
        Path dataDirectory,
        Map<String, Object> settings,
        Map<String, Object> pluginSettings,
        String appVersion)
        implements PluginContext {

    /** The version the plugins' tests run against. */
    public static final String APP_VERSION = "0.2.0-SNAPSHOT";

    public TestPluginContext {
        settings = Map.copyOf(settings);
        pluginSettings = Map.copyOf(pluginSettings);
    }

    /** A context for {@code pluginId} writing under {@code dataDirectory}, with the given settings section. */
    public static TestPluginContext of(String pluginId, Path dataDirectory, Map<String, Object> pluginSettings) {
        return new TestPluginContext(
                pluginId,
                dataDirectory,
                Map.of("plugins", Map.of(pluginId, pluginSettings)),
                pluginSettings,
                APP_VERSION);
    }
}
