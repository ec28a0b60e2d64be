/**
 * The plugin contract of Rebound, line 2: the events of a chat session as immutable records of a sealed hierarchy,
 * the {@link dev.rebound.api.SessionEventListener} extension point that receives them, and the
 * {@link dev.rebound.api.PluginContext} each plugin is given. Every event names its chat ({@link dev.rebound.api.SessionRef})
 * and its turn. The names and fields follow the JSON events of RPC mode (docs/rpc.md); enums render as their
 * {@code toString()} wire names. These types are published for plugins only and kept apart from the app's internal
 * model, which the host maps to them. This package depends on the JDK and PF4J only.
 */
package dev.rebound.api;
