package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Where plugins are looked for: the user's folder, then --plugins-dir, then the installed package's bundled folder. */
class PluginRootsTest {
    private final Path user = Path.of("/home/u/.config/rebound/plugins");

    @Test
    void theUsersFolderComesFirstThenPluginsDirThenTheBundledFolder() {
        assertThat(AppServices.pluginRoots(user, Path.of("/tmp/extra"), "/opt/rebound/lib/app/plugins"))
                .containsExactly(user, Path.of("/tmp/extra"), Path.of("/opt/rebound/lib/app/plugins"));
    }

    @Test
    void withoutThePropertyOnlyTheUsersFoldersAreSearched() {
        assertThat(AppServices.pluginRoots(user, null, null)).containsExactly(user);
        assertThat(AppServices.pluginRoots(user, null, " ")).containsExactly(user);
        assertThat(AppServices.pluginRoots(user, Path.of("/tmp/extra"), null))
                .containsExactly(user, Path.of("/tmp/extra"));
    }
}
