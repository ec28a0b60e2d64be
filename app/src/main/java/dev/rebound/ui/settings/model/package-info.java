/**
 * View-models of the settings window, tested without a toolkit: one per tab, each field holding its text and the
 * reason {@link dev.rebound.settings.SettingsValidator} gives at its key path, and the ports the window reaches the
 * rest of the app through ({@link dev.rebound.ui.settings.model.ConnectionTester},
 * {@link dev.rebound.ui.settings.model.PluginsPort}).
 */
package dev.rebound.ui.settings.model;
