package dev.rebound.api;

import java.nio.file.Path;
import java.util.Map;

/** What the host gives each plugin: who it is, where it may write, what it may read. */
public interface PluginContext {

    /** The plugin's id, as in its descriptor ({@code Plugin-Id}). */
    String pluginId();

    /** A directory private to this plugin, where it may keep files; created by the host. */
    Path dataDirectory();

    /**
     * A read-only view of the app's settings ({@code settings.json} as a tree of maps, lists, strings, numbers and
     * booleans), without secrets: credentials are never in it; members whose name has a word that names a secret
     * ({@code apiKey}, {@code access_token}, {@code x-auth}...), provider headers, and the user info, query and
     * fragment of URL values are removed. Of {@code plugins}, only this plugin's own section is there.
     */
    Map<String, Object> settings();

    /**
     * This plugin's own section of the settings, {@code settings.json → plugins → <plugin id>}, read-only, without
     * the host's {@code enabled} switch and without secrets; empty when there is none.
     */
    Map<String, Object> pluginSettings();

    /** The version of the running Rebound app. */
    String appVersion();
}
