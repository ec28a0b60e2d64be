package dev.rebound.ui.settings.model;

import java.io.IOException;
import java.util.List;

/** The plugins the settings window lists and switches on or off; implemented outside the UI. */
public interface PluginsPort {

    /** The plugins known now. */
    List<PluginRow> plugins();

    /**
     * Writes {@code plugins.<id>.enabled} to settings.json; it takes effect on the next start.
     *
     * @throws IOException when the setting could not be saved (the message says why, for a person)
     */
    void setEnabled(String id, boolean enabled) throws IOException;

    /**
     * One plugin as the host sees it.
     *
     * @param id the plugin id
     * @param version its version, or empty when unknown
     * @param state its state ({@code STARTED}, {@code FAILED}, {@code DISABLED}...)
     * @param failure why it failed, or empty
     * @param delivered events delivered to it
     * @param dropped events dropped for it
     * @param enabled whether settings.json enables it
     */
    record PluginRow(
            String id, String version, String state, String failure, long delivered, long dropped, boolean enabled) {}
}
