package dev.rebound.settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Rebound's config directory and the files and folders in it. It is, first that applies: the {@code --config-dir}
 * option, the {@code REBOUND_CONFIG_DIR} environment variable, the platform's user config directory
 * ({@code $XDG_CONFIG_HOME/rebound} or {@code ~/.config/rebound} on Linux and other Unixes,
 * {@code ~/Library/Application Support/Rebound} on macOS, {@code %APPDATA%\Rebound} on Windows).
 */
public final class ConfigDirectory {
    /** The environment variable that names the config directory. */
    public static final String ENV_VARIABLE = "REBOUND_CONFIG_DIR";

    /** Where the directory came from, for diagnostics. */
    public enum Source {
        OPTION,
        ENVIRONMENT,
        PLATFORM
    }

    private final Path root;
    private final Source source;

    private ConfigDirectory(Path root, Source source) {
        this.root = root;
        this.source = source;
    }

    /** A config directory at that place, as if given with {@code --config-dir}. */
    public static ConfigDirectory at(Path root) {
        return new ConfigDirectory(root.toAbsolutePath().normalize(), Source.OPTION);
    }

    /**
     * Resolves the config directory from this process's environment, {@code os.name} and {@code user.home}.
     *
     * @param configDirOption the {@code --config-dir} value, or null when not given
     */
    public static ConfigDirectory resolveFromSystem(Path configDirOption) {
        return resolve(
                configDirOption,
                System.getenv(),
                System.getProperty("os.name", ""),
                Path.of(System.getProperty("user.home")));
    }

    /**
     * Resolves the config directory.
     *
     * @param configDirOption the {@code --config-dir} value, or null when not given
     * @param env the environment variables
     * @param osName the {@code os.name} system property
     * @param home the user's home directory
     */
    public static ConfigDirectory resolve(Path configDirOption, Map<String, String> env, String osName, Path home) {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(home, "home");
        if (configDirOption != null) {
            return at(configDirOption);
        }
        String fromEnv = env.get(ENV_VARIABLE);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return new ConfigDirectory(Path.of(fromEnv).toAbsolutePath().normalize(), Source.ENVIRONMENT);
        }
        return new ConfigDirectory(platformDirectory(env, osName == null ? "" : osName, home), Source.PLATFORM);
    }

    private static Path platformDirectory(Map<String, String> env, String osName, Path home) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            String appData = env.get("APPDATA");
            Path base = appData == null || appData.isBlank()
                    ? home.resolve("AppData").resolve("Roaming")
                    : Path.of(appData);
            return base.resolve("Rebound");
        }
        if (os.startsWith("mac") || os.startsWith("darwin")) {
            return home.resolve("Library").resolve("Application Support").resolve("Rebound");
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        // The XDG base directory spec says a relative value is invalid and must be ignored.
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg).resolve("rebound");
        }
        return home.resolve(".config").resolve("rebound");
    }

    /** The directory itself. */
    public Path root() {
        return root;
    }

    /** Where the directory came from. */
    public Source source() {
        return source;
    }

    /** {@code settings.json}: everything but secrets. */
    public Path settingsFile() {
        return root.resolve("settings.json");
    }

    /** {@code credentials.json}: API keys per provider. */
    public Path credentialsFile() {
        return root.resolve("credentials.json");
    }

    /** {@code state/}: credential blocks and model cooldowns that survive a restart. */
    public Path stateDir() {
        return root.resolve("state");
    }

    /** {@code sessions/}: one JSON Lines file per chat session. */
    public Path sessionsDir() {
        return root.resolve("sessions");
    }

    /** {@code plugins/}: plugin archives. */
    public Path pluginsDir() {
        return root.resolve("plugins");
    }

    /**
     * {@code plugin-data/<pluginId>/}: one plugin's private data directory.
     *
     * @throws IllegalArgumentException when the id could escape that directory (empty, a path separator, {@code ..})
     */
    public Path pluginDataDir(String pluginId) {
        if (pluginId == null
                || pluginId.isBlank()
                || pluginId.equals(".")
                || pluginId.equals("..")
                || pluginId.indexOf('/') >= 0
                || pluginId.indexOf('\\') >= 0
                || pluginId.indexOf('\0') >= 0
                || pluginId.indexOf(':') >= 0) {
            throw new IllegalArgumentException("'" + pluginId + "' cannot be used as a plugin data directory name");
        }
        return root.resolve("plugin-data").resolve(pluginId);
    }

    /** {@code logs/}: rotating log files. */
    public Path logsDir() {
        return root.resolve("logs");
    }

    /**
     * Creates the directory (and missing parents) if it does not exist yet; owner-only where the file system has POSIX
     * permissions, since it holds credentials.
     *
     * @return this
     */
    public ConfigDirectory ensureExists() throws IOException {
        if (!Files.isDirectory(root)) {
            if (root.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createDirectories(
                        root, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(root);
            }
        }
        return this;
    }

    @Override
    public String toString() {
        return root + " (from " + source.name().toLowerCase(Locale.ROOT) + ")";
    }
}
