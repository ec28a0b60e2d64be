package dev.rebound.app;

import dev.rebound.ui.DesktopContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The app's real services for UI tests: a config directory whose settings point one model ({@code local/test-model})
 * at a loopback server, and the desktop context the window is built from.
 */
public final class DesktopHarness implements AutoCloseable {
    /** The model the settings configure. */
    public static final String MODEL = "local/test-model";

    private final AppServices services;

    private DesktopHarness(AppServices services) {
        this.services = services;
    }

    /**
     * Writes {@code settings.json} and starts the services.
     *
     * @param baseUrl the provider's base URL (e.g. MockWebServer's {@code /v1})
     * @param retryJson the {@code retry} group, e.g. {@code {"baseDelayMs": 10}}
     */
    public static DesktopHarness start(Path configDir, String baseUrl, String retryJson) throws Exception {
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "%s",
                  "providers": { "local": { "api": "openai-completions", "baseUrl": "%s",
                                            "models": [ { "id": "test-model" }, { "id": "other-model" } ] } },
                  "retry": %s }
                """.formatted(MODEL, baseUrl, retryJson));
        return new DesktopHarness(AppServices.start(configDir, Map.of()));
    }

    /**
     * Writes a {@code settings.json} that configures no provider, so the built-in simulator is the provider (as on a
     * first run), and starts the services.
     *
     * @param retryJson the {@code retry} group
     */
    public static DesktopHarness startOffline(Path configDir, String retryJson) throws Exception {
        Files.writeString(configDir.resolve("settings.json"), "{ \"retry\": " + retryJson + " }");
        return new DesktopHarness(AppServices.start(configDir, Map.of()));
    }

    /** Starts the services on the {@code settings.json} already in the config directory. */
    public static DesktopHarness open(Path configDir) throws Exception {
        return new DesktopHarness(AppServices.start(configDir, Map.of()));
    }

    /** Loads the plugins of {@code <config-dir>/plugins/}, as the desktop does before it opens chats. */
    public void startPlugins() {
        services.startPlugins(null, false);
    }

    /** A new chat, as the window's "New chat" makes one (saved under {@code sessions/}). */
    public dev.rebound.session.ChatSession newChat() {
        return services.sessionFactory().create().session();
    }

    /** The context of a window that opens a new chat ({@code resume} null) or a saved one. */
    public DesktopContext context(Path resume) {
        return services.desktopContext(resume);
    }

    @Override
    public void close() {
        services.close();
    }
}
