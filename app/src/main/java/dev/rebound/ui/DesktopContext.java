package dev.rebound.ui;

import dev.rebound.event.Notice;
import dev.rebound.history.SessionCatalogue;
import dev.rebound.session.SessionFactory;
import dev.rebound.settings.SettingsStore;
import dev.rebound.ui.model.SimulatorPort;
import dev.rebound.ui.settings.model.SettingsServices;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * What the desktop app needs from its host: the session core's services, a background executor for disk work, time,
 * and where to remember its look.
 *
 * @param sessions makes and reopens sessions
 * @param catalogue the saved chats
 * @param settings the settings (models for the picker)
 * @param background runs disk work off the FX thread
 * @param clock the time of countdowns
 * @param zone the zone times are shown in
 * @param preferencesFile where the window remembers its theme
 * @param resume a session file to open first ({@code --session}), or null for a new chat
 * @param startupNotices problems found while starting, as (level, message) pairs, shown in the first chat
 * @param settingsFile the settings file
 * @param settingsServices what the settings window edits and calls
 * @param simulator the built-in simulator, scripted by the "Simulate failures" menu
 */
public record DesktopContext(
        SessionFactory sessions,
        SessionCatalogue catalogue,
        SettingsStore settings,
        Executor background,
        Clock clock,
        ZoneId zone,
        Path preferencesFile,
        Path resume,
        List<Notice> startupNotices,
        Path settingsFile,
        SettingsServices settingsServices,
        SimulatorPort simulator) {
    public DesktopContext {
        startupNotices = List.copyOf(startupNotices);
    }
}
