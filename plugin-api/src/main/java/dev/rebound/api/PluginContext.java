package dev.rebound.api;

import java.nio.file.Path;
import java.util.Map;

/** What the host gives each plugin: who it is, where it may write, what it may read. */
public interface PluginContext {

    /** The plugin's id, as in its descriptor ({@code Plugin-Id}). */
    String pluginId();

    /** A directory private to this plugin, where it may keep files; created by the host. */
    Path dataDirectory();

    /** A read-only view of the plugin's settings, without secrets (no API keys or tokens). */
    Map<String, Object> settings();

    /** The version of the running Rebound app. */
    String appVersion();
}
