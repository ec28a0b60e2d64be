package dev.rebound.ui.settings.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.auth.CredentialStore;
import dev.rebound.settings.ConfigDirectory;
import dev.rebound.settings.SettingsStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Retry tab's durations on a real settings file: shown with units, typed in any accepted wording, written in
 * milliseconds only when the duration changed, and checked by the real validator with its limits said in units.
 */
class RetryTabModelTest {
    @TempDir
    Path dir;

    private SettingsViewModel open(String retry) throws IOException {
        Files.writeString(dir.resolve("settings.json"), "{ \"retry\": " + retry + " }");
        SettingsStore store = SettingsStore.open(ConfigDirectory.at(dir), Clock.systemUTC());
        CredentialStore credentials = CredentialStore.open(ConfigDirectory.at(dir), Map.of(), Clock.systemUTC());
        PluginsPort plugins = new PluginsPort() {
            @Override
            public List<PluginRow> plugins() {
                return List.of();
            }

            @Override
            public void setEnabled(String id, boolean enabled) {
                throw new AssertionError("no plugin is switched here");
            }
        };
        return new SettingsViewModel(
                new SettingsServices(
                        store,
                        credentials,
                        target -> new ConnectionTester.Result(true, "fine"),
                        plugins,
                        dir.resolve("plugins")),
                Runnable::run,
                Runnable::run);
    }

    @Test
    void durationsAreShownWithUnitsAndAnUnroundNumberExactly() throws IOException {
        RetryTabModel retry = open("{ \"baseDelayMs\": 1234, \"maxDelayMs\": 300000, \"refusalPinMs\": 1800000 }")
                .retry();

        assertThat(retry.baseDelay().text()).isEqualTo("1.234 s");
        assertThat(retry.maxDelay().text()).isEqualTo("5 min");
        assertThat(retry.timeBudget().text()).as("the default 600000 ms").isEqualTo("10 min");
        assertThat(retry.refusalPin().text()).isEqualTo("30 min");
    }

    @Test
    void aNegativeLimitInTheFileIsShownAsZeroWhichMeansTheSameAndIsNotRewritten() throws IOException {
        SettingsViewModel model = open("{ \"maxDelayMs\": -1, \"maxElapsedMs\": -5 }");

        assertThat(model.retry().maxDelay().text()).isEqualTo("0");
        assertThat(model.retry().timeBudget().text()).isEqualTo("0");
        model.retry().maxDelay().textProperty().set("0 s");
        assertThat(model.patch().isEmpty()).isTrue();
        model.retry().timeBudget().textProperty().set("1 h");
        assertThat(model.patch().path("retry").path("maxElapsedMs").asLong()).isEqualTo(3_600_000);
    }

    @Test
    void aDurationTypedAsNinetySecondsGoesIntoTheEditInMilliseconds() throws IOException {
        SettingsViewModel model = open("{}");

        model.retry().baseDelay().textProperty().set("90s");

        assertThat(model.retry().baseDelay().errorProperty().get()).isEmpty();
        assertThat(model.canSaveProperty().get()).isTrue();
        assertThat(model.patch().path("retry").path("baseDelayMs").isIntegralNumber())
                .isTrue();
        assertThat(model.patch().path("retry").path("baseDelayMs").asLong()).isEqualTo(90_000);
    }

    @Test
    void theSameDurationInOtherWordsChangesNothing() throws IOException {
        SettingsViewModel model = open("{}");

        model.retry().maxDelay().textProperty().set("300 s");
        model.retry().timeBudget().textProperty().set("600000 ms");
        model.retry().refusalPin().textProperty().set("30m");

        assertThat(model.patch().isEmpty()).isTrue();
    }

    @Test
    void theValidatorsLimitIsSaidInUnitsAndDisablesSave() throws IOException {
        SettingsViewModel model = open("{}");

        model.retry().baseDelay().textProperty().set("2 h");

        assertThat(model.retry().baseDelay().errorProperty().get()).isEqualTo("must be at most 1 h");
        assertThat(model.canSaveProperty().get()).isFalse();
        model.retry().baseDelay().textProperty().set("1 h");
        assertThat(model.retry().baseDelay().errorProperty().get()).isEmpty();
        assertThat(model.canSaveProperty().get()).isTrue();
    }

    @Test
    void aTextThatIsNoDurationIsRefusedAtItsFieldAndLeftOutOfTheEdit() throws IOException {
        SettingsViewModel model = open("{}");

        model.retry().refusalPin().textProperty().set("45");

        assertThat(model.retry().refusalPin().errorProperty().get()).isEqualTo("add a unit: 45 s or 45 ms");
        assertThat(model.canSaveProperty().get()).isFalse();
        assertThat(model.patch().isEmpty()).isTrue();
    }

    @Test
    void leavingAFieldShowsAValidDurationInItsCanonicalFormAndKeepsAnInvalidOneAsTyped() throws IOException {
        SettingsViewModel model = open("{}");
        FieldModel base = model.retry().baseDelay();

        base.textProperty().set("1m30s");
        base.tidy();
        assertThat(base.text()).isEqualTo("1 min 30 s");
        assertThat(model.patch().path("retry").path("baseDelayMs").asLong()).isEqualTo(90_000);

        base.textProperty().set("5 parsecs");
        base.tidy();
        assertThat(base.text()).isEqualTo("5 parsecs");
        assertThat(base.errorProperty().get()).isNotEmpty();

        model.retry().maxRetries().textProperty().set(" 3");
        model.retry().maxRetries().tidy();
        assertThat(model.retry().maxRetries().text())
                .as("a plain field has no canonical form")
                .isEqualTo(" 3");
    }
}
