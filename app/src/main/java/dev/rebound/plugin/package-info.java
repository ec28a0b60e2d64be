/**
 * The plugin host: delivers session events to each plugin on its own thread through a bounded queue, and guards,
 * attributes and counts every failure so that nothing a plugin does reaches the session.
 */
package dev.rebound.plugin;
