package dev.rebound.plugin;

import java.util.Locale;

/**
 * What the host says about one plugin (RPC {@code get_plugins}, the plugins view).
 *
 * @param id the plugin id, or the archive's file name when its descriptor could not be read
 * @param version the plugin version, or null when unknown
 * @param state where the plugin stands
 * @param failure why it is not active, or its last failure; null when there is nothing to say
 * @param delivered events it handled
 * @param dropped events dropped because its queue was full
 * @param failures events whose delivery failed
 * @param archive the archive it came from
 */
public record PluginReport(
        String id,
        String version,
        State state,
        String failure,
        long delivered,
        long dropped,
        long failures,
        String archive) {

    /** Where a plugin stands; its wire name is the lower-case constant name. */
    public enum State {
        /** Loaded, started, receiving events. */
        ACTIVE,
        /** Switched off in settings, or disabled after repeated failures. */
        DISABLED,
        /** Failed to load, start or create its listeners, or stopped by an error it could not contain. */
        FAILED,
        /** Its {@code Plugin-Requires} does not accept this app version. */
        REFUSED,
        /** The archive is not a readable plugin (not a zip, no descriptor). */
        INVALID,
        /** Another archive with the same plugin id was loaded first. */
        DUPLICATE,
        /** A call into it has not returned for a while; its events wait and the oldest are dropped. */
        STUCK;

        /** The name used on the wire: {@code active}, {@code disabled}... */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
