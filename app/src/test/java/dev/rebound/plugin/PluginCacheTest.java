package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginCacheTest {
    @TempDir
    Path root;

    @Test
    void eachProcessUnpacksIntoItsOwnFolderAndRemovesItWhenClosed() throws Exception {
        ProcessHandle self = ProcessHandle.current();
        try (PluginCache first = PluginCache.open(root, self, new SplittableRandom(1));
                PluginCache second = PluginCache.open(root, self, new SplittableRandom(2))) {
            assertThat(first.folder()).isNotEqualTo(second.folder());
            assertThat(first.folder().getFileName().toString()).startsWith(self.pid() + "-");
            Files.writeString(second.folder().resolve("plugin.properties"), "plugin.id=x");
            first.close();
            assertThat(first.folder()).doesNotExist();
            assertThat(second.folder().resolve("plugin.properties")).exists();
        }
        try (var left = Files.list(root)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void openingRemovesTheFoldersOfEndedProcessesAndOldLayoutsButNotALiveOnes() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path deadOnes =
                Files.createDirectories(root.resolve(ended.pid() + "-0a1b2c").resolve("classes"));
        Path oldLayout = Files.createDirectories(root.resolve("0-recording"));
        Path liveOnes =
                Files.createDirectories(root.resolve(ProcessHandle.current().pid() + "-ffee00"));
        Files.writeString(liveOnes.resolve("plugin.properties"), "plugin.id=x");

        try (PluginCache cache = PluginCache.open(root, ProcessHandle.current(), new SplittableRandom(3))) {
            assertThat(deadOnes.getParent()).doesNotExist();
            assertThat(oldLayout).doesNotExist();
            assertThat(liveOnes.resolve("plugin.properties")).exists();
            assertThat(cache.folder()).isDirectory();
        }
    }
}
