package dev.rebound.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigDirectoryTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"Linux", "Mac OS X", "Windows 11"})
    void theCommandLineOptionWinsOverEnvironmentAndPlatform(String os) {
        Path option = tmp.resolve("from-option");
        ConfigDirectory dir = ConfigDirectory.resolve(
                option,
                Map.of(
                        "REBOUND_CONFIG_DIR",
                        tmp.resolve("from-env").toString(),
                        "APPDATA",
                        tmp.toString(),
                        "XDG_CONFIG_HOME",
                        tmp.toString()),
                os,
                tmp.resolve("home"));

        assertThat(dir.root()).isEqualTo(option);
        assertThat(dir.source()).isEqualTo(ConfigDirectory.Source.OPTION);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Linux", "Mac OS X", "Windows 11"})
    void theEnvironmentVariableWinsOverThePlatformDirectory(String os) {
        ConfigDirectory dir = ConfigDirectory.resolve(
                null,
                Map.of(
                        "REBOUND_CONFIG_DIR",
                        tmp.resolve("from-env").toString(),
                        "APPDATA",
                        tmp.toString(),
                        "XDG_CONFIG_HOME",
                        tmp.toString()),
                os,
                tmp.resolve("home"));

        assertThat(dir.root()).isEqualTo(tmp.resolve("from-env"));
        assertThat(dir.source()).isEqualTo(ConfigDirectory.Source.ENVIRONMENT);
    }

    @Test
    void anEmptyEnvironmentVariableIsIgnored() {
        ConfigDirectory dir = ConfigDirectory.resolve(null, Map.of("REBOUND_CONFIG_DIR", ""), "Linux", tmp);

        assertThat(dir.root()).isEqualTo(tmp.resolve(".config/rebound"));
        assertThat(dir.source()).isEqualTo(ConfigDirectory.Source.PLATFORM);
    }

    @Test
    void linuxUsesXdgConfigHomeWhenSet() {
        Path xdg = tmp.resolve("xdg");
        ConfigDirectory dir = ConfigDirectory.resolve(null, Map.of("XDG_CONFIG_HOME", xdg.toString()), "Linux", tmp);

        assertThat(dir.root()).isEqualTo(xdg.resolve("rebound"));
    }

    @Test
    void linuxFallsBackToDotConfigWithoutXdgConfigHome() {
        assertThat(ConfigDirectory.resolve(null, Map.of(), "Linux", tmp).root())
                .isEqualTo(tmp.resolve(".config/rebound"));
    }

    @Test
    void linuxIgnoresARelativeXdgConfigHomeAsTheXdgSpecRequires() {
        ConfigDirectory dir = ConfigDirectory.resolve(null, Map.of("XDG_CONFIG_HOME", "relative/dir"), "Linux", tmp);

        assertThat(dir.root()).isEqualTo(tmp.resolve(".config/rebound"));
    }

    @Test
    void macOsUsesApplicationSupport() {
        ConfigDirectory dir = ConfigDirectory.resolve(null, Map.of("XDG_CONFIG_HOME", "/elsewhere"), "Mac OS X", tmp);

        assertThat(dir.root()).isEqualTo(tmp.resolve("Library/Application Support/Rebound"));
    }

    @Test
    void windowsUsesAppData() {
        Path appData = tmp.resolve("AppData-Roaming");
        ConfigDirectory dir = ConfigDirectory.resolve(null, Map.of("APPDATA", appData.toString()), "Windows 11", tmp);

        assertThat(dir.root()).isEqualTo(appData.resolve("Rebound"));
    }

    @Test
    void windowsWithoutAppDataUsesTheRoamingFolderOfHome() {
        ConfigDirectory dir = ConfigDirectory.resolve(null, Map.of(), "Windows 10", tmp);

        assertThat(dir.root())
                .isEqualTo(tmp.resolve("AppData").resolve("Roaming").resolve("Rebound"));
    }

    @Test
    void namesEveryFileAndFolderOfTheDirectory() {
        ConfigDirectory dir = ConfigDirectory.at(tmp);

        assertThat(dir.settingsFile()).isEqualTo(tmp.resolve("settings.json"));
        assertThat(dir.credentialsFile()).isEqualTo(tmp.resolve("credentials.json"));
        assertThat(dir.stateDir()).isEqualTo(tmp.resolve("state"));
        assertThat(dir.sessionsDir()).isEqualTo(tmp.resolve("sessions"));
        assertThat(dir.pluginsDir()).isEqualTo(tmp.resolve("plugins"));
        assertThat(dir.pluginDataDir("hello-plugin")).isEqualTo(tmp.resolve("plugin-data/hello-plugin"));
        assertThat(dir.logsDir()).isEqualTo(tmp.resolve("logs"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "..", ".", "../escape", "a/b", "a\\b"})
    void refusesPluginIdsThatCouldEscapeThePluginDataFolder(String id) {
        assertThatThrownBy(() -> ConfigDirectory.at(tmp).pluginDataDir(id))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ensureExistsCreatesTheDirectoryOwnerOnlyAndIsIdempotent() throws Exception {
        ConfigDirectory dir = ConfigDirectory.at(tmp.resolve("a/b/rebound"));

        dir.ensureExists().ensureExists();

        assertThat(dir.root()).isDirectory();
        if (Files.getFileStore(tmp).supportsFileAttributeView("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.root())))
                    .isEqualTo("rwx------");
        }
    }

    @Test
    void resolvingCreatesNothing() {
        ConfigDirectory dir = ConfigDirectory.resolve(null, Map.of(), "Linux", tmp);

        assertThat(dir.root()).doesNotExist();
    }
}
