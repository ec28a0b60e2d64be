package dev.rebound.plugin;

import dev.rebound.api.PluginContext;
import java.nio.file.Path;
import java.util.Map;

/**
 * The context the host gives one plugin (see {@link PluginContext}); immutable.
 *
 * @param pluginId the plugin's id
 * @param dataDirectory {@code <config-dir>/plugin-data/<plugin-id>/}, created by the host
 * @param settings the settings tree without secrets, read-only
 * @param pluginSettings the plugin's own section without {@code enabled} and secrets, read-only
 * @param appVersion the running app's version
 */
record HostPluginContext(
        String pluginId,
        Path dataDirectory,
        Map<String, Object> settings,
        Map<String, Object> pluginSettings,
        String appVersion)
        implements PluginContext {}
