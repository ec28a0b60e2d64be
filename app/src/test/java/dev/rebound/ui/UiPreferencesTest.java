package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remembered theme, zoom and start chat: written atomically, read back, and never a reason not to start. */
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
    void theChatTheWindowStartedWithIsReadBackAndSavingTheThemeKeepsIt() throws Exception {
        Path file = dir.resolve("state/desktop.json");
        assertThat(UiPreferences.load(file).startChat()).as("a first start").isNull();
        UiPreferences.load(file).saveStartChat("0b6a81fd-b8cb-444b-a775-a2e5902432f8");

        UiPreferences again = UiPreferences.load(file);
        assertThat(again.startChat()).isEqualTo("0b6a81fd-b8cb-444b-a775-a2e5902432f8");
        again.saveDark(true);
        assertThat(UiPreferences.load(file).startChat()).isEqualTo("0b6a81fd-b8cb-444b-a775-a2e5902432f8");

        Files.writeString(file, "{ \"startChat\": 42 }");
        assertThat(UiPreferences.load(file).startChat()).as("not text").isNull();
    }

    @Test
    void theStartChatIsNotWrittenOverAFileThatCouldNotBeRead() throws Exception {
        Path file = dir.resolve("desktop.json");
        String handEdited = "{ \"theme\": \"dark\", \"zoomPercent\": 150, }";
        Files.writeString(file, handEdited);

        UiPreferences.load(file).saveStartChat("0b6a81fd");

        assertThat(Files.readString(file)).isEqualTo(handEdited);
    }

    @Test
    void aMissingOrBrokenFileMeansTheLightDefault() throws Exception {
        Path file = dir.resolve("desktop.json");
        assertThat(UiPreferences.load(file).dark()).isFalse();
        Files.writeString(file, "{ not json");
        assertThat(UiPreferences.load(file).dark()).isFalse();
    }

    @Test
    void theZoomLevelIsReadBackAndSavingTheThemeKeepsIt() throws Exception {
        Path file = dir.resolve("state/desktop.json");
        UiPreferences first = UiPreferences.load(file);
        assertThat(first.zoomPercent()).as("the default").isEqualTo(100);
        first.setZoomPercent(150);
        first.save();

        UiPreferences second = UiPreferences.load(file);
        assertThat(second.zoomPercent()).isEqualTo(150);
        second.saveDark(true);
        assertThat(UiPreferences.load(file).zoomPercent()).isEqualTo(150);
        assertThat(UiPreferences.load(file).dark()).isTrue();
        assertThat(Files.readString(file)).contains("\"zoomPercent\": 150");
    }

    @Test
    void aFileOfAnOlderVersionWithTheThemeOnlyStartsAtTheNormalSize() throws Exception {
        Path file = dir.resolve("desktop.json");
        Files.writeString(file, "{ \"theme\": \"dark\" }");

        UiPreferences preferences = UiPreferences.load(file);

        assertThat(preferences.dark()).isTrue();
        assertThat(preferences.zoomPercent()).isEqualTo(100);
    }

    @Test
    void aDamagedZoomLevelMeansTheNormalSizeAndAnyNumberTheNearestStep() throws Exception {
        Path file = dir.resolve("desktop.json");
        for (String[] given : new String[][] {
            {"\"big\"", "100"},
            {"true", "100"},
            {"{}", "100"},
            {"null", "100"},
            {"1000", "200"},
            {"-3", "80"},
            {"1e400", "100"},
            {"117", "110"},
            {"124.6", "125"},
        }) {
            Files.writeString(file, "{ \"theme\": \"dark\", \"zoomPercent\": " + given[0] + " }");
            UiPreferences preferences = UiPreferences.load(file);
            assertThat(preferences.zoomPercent()).as(given[0]).isEqualTo(Integer.parseInt(given[1]));
            assertThat(preferences.dark())
                    .as("the theme is still read beside " + given[0])
                    .isTrue();
        }
        Files.writeString(file, "[1, 2]");
        assertThat(UiPreferences.load(file).zoomPercent()).isEqualTo(100);
    }

    @Test
    void membersOfOtherVersionsSurviveASave() throws Exception {
        Path file = dir.resolve("desktop.json");
        Files.writeString(file, "{ \"theme\": \"light\", \"windowWidth\": 900 }");

        UiPreferences preferences = UiPreferences.load(file);
        preferences.setZoomPercent(90);
        preferences.save();

        String saved = Files.readString(file);
        assertThat(saved).contains("\"windowWidth\": 900", "\"zoomPercent\": 90", "\"theme\": \"light\"");
    }
}
