package dev.rebound.ui.view;

/** The tab the settings window opens on. */
public enum SettingsTab {
    /** The retry group (the default). */
    RETRY,
    /** The fallback-chain editor. */
    FALLBACK_CHAINS,
    /** Providers and their credentials (the welcome view's "Add a real provider"). */
    PROVIDERS,
    /** Chat: the default system prompt. */
    CHAT,
    /** Plugins: state, failures, enable/disable. */
    PLUGINS
}
