/**
 * The settings window's views: thin JavaFX nodes bound to the view-models of
 * {@link dev.rebound.ui.settings.model}. Each view keeps its bindings in a Subscriptions
 * list released when the window goes.
 */
package dev.rebound.ui.settings;
