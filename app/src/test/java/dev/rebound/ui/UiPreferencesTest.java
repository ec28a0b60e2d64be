package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remembered theme: written atomically, read back, and never a reason not to start. */
class UiPreferencesTest {
    @TempDir
    Path dir;

    @Test
    void aSavedThemeIsReadBackAndTheFolderIsMadeWhenMissing() throws Exception {
        Path file = dir.resolve("state/desktop.json");
        UiPreferences.load(file).saveDark(true);

        assertThat(UiPreferences.load(file).dark()).isTrue();
        assertThat(Files.readString(file)).contains("\"theme\": \"dark\"");
        try (var names = Files.list(file.getParent())) {
            assertThat(names.map(p -> p.getFileName().toString())).containsExactly("desktop.json");
        }
    }

    @Test
    void aMissingOrBrokenFileMeansTheLightDefault() throws Exception {
        Path file = dir.resolve("desktop.json");
        assertThat(UiPreferences.load(file).dark()).isFalse();
        Files.writeString(file, "{ not json");
        assertThat(UiPreferences.load(file).dark()).isFalse();
    }
}
