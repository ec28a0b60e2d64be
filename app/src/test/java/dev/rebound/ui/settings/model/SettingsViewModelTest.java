package dev.rebound.ui.settings.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.auth.CredentialStore;
import dev.rebound.settings.ConfigDirectory;
import dev.rebound.settings.SettingsStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings window's view-models on real settings and credentials files, without a toolkit: validation as typed
 * with the validator's reasons, masking, chain editing, saving, failing to save, and cancelling.
 */
class SettingsViewModelTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SETTINGS = """
            { "model": "local/a",
              "providers": { "local": { "api": "openai-completions", "baseUrl": "http://127.0.0.1:9/v1",
                                        "models": [ { "id": "a", "contextWindow": 8000 }, { "id": "b" } ] } },
              "retry": { "baseDelayMs": 20, "fallbackChains": { "title": ["local/b", "gone/model"] } },
              "unknownKey": "kept" }
            """;

    @TempDir
    Path dir;

    private SettingsStore store;
    private CredentialStore credentials;
    private final Queue<Runnable> background = new ArrayDeque<>();
    private final List<String[]> switched = new ArrayList<>();
    private List<PluginsPort.PluginRow> pluginRows = List.of();
    private ConnectionTester tester = target -> new ConnectionTester.Result(true, "fine");

    @BeforeEach
    void files() throws IOException {
        Files.writeString(dir.resolve("settings.json"), SETTINGS);
        store = SettingsStore.open(ConfigDirectory.at(dir), Clock.systemUTC());
        credentials = CredentialStore.open(ConfigDirectory.at(dir), Map.of(), Clock.systemUTC());
    }

    private SettingsViewModel open() {
        PluginsPort plugins = new PluginsPort() {
            @Override
            public List<PluginRow> plugins() {
                return pluginRows;
            }

            @Override
            public void setEnabled(String id, boolean enabled) {
                switched.add(new String[] {id, Boolean.toString(enabled)});
            }
        };
        return new SettingsViewModel(
                new SettingsServices(
                        store, credentials, target -> tester.test(target), plugins, dir.resolve("plugins")),
                Runnable::run,
                background::add);
    }

    /** Fills the new-credential form of the Providers tab for provider {@code local}. */
    private static ProvidersTabModel typedKey(SettingsViewModel model, String label, String key) {
        ProvidersTabModel providers = model.providers();
        providers.credentialProviderProperty().set("local");
        providers.credentialLabelProperty().set(label);
        providers.credentialValueProperty().set(key);
        return providers;
    }

    private void runBackground() {
        while (!background.isEmpty()) {
            background.poll().run();
        }
    }

    private JsonNode savedSettings() throws IOException {
        return JSON.readTree(dir.resolve("settings.json").toFile());
    }

    @Test
    void aNegativeMaxRetriesShowsTheValidatorsReasonAndDisablesSaveUntilFixed() {
        SettingsViewModel model = open();
        assertThat(model.canSaveProperty().get()).isTrue();

        model.retry().maxRetries().textProperty().set("-1");

        assertThat(model.retry().maxRetries().errorProperty().get()).isEqualTo("must be ≥ 0");
        assertThat(model.canSaveProperty().get()).isFalse();
        model.retry().maxRetries().textProperty().set("3");
        assertThat(model.retry().maxRetries().errorProperty().get()).isEmpty();
        assertThat(model.canSaveProperty().get()).isTrue();
    }

    @Test
    void textThatIsNoWholeNumberNoDurationOrEmptyIsRefusedAtItsField() {
        SettingsViewModel model = open();

        model.retry().maxRetries().textProperty().set("1.5");
        assertThat(model.retry().maxRetries().errorProperty().get()).isEqualTo("must be a whole number");
        model.retry().baseDelay().textProperty().set("5 parsecs");
        assertThat(model.retry().baseDelay().errorProperty().get())
                .isEqualTo("'parsecs' is not a unit; use ms, s, min or h");
        model.retry().maxDelay().textProperty().set("");
        assertThat(model.retry().maxDelay().errorProperty().get())
                .isEqualTo("enter a duration, such as 30 s, 5 min or 1 min 30 s");
        model.retry().maxRetries().textProperty().set("3");
        model.retry().baseDelay().textProperty().set("1 s");
        assertThat(model.canSaveProperty().get()).as("the empty max delay").isFalse();
        model.retry().maxDelay().textProperty().set("0");
        assertThat(model.canSaveProperty().get()).isTrue();
    }

    @Test
    void saveWritesOnlyWhatChangedAppliesItToTheStoreAndKeepsUnknownKeys() throws IOException {
        SettingsViewModel model = open();
        model.retry().maxRetries().textProperty().set("3");
        model.retry().maxDelay().textProperty().set("0");

        model.save();
        assertThat(model.stateProperty().get()).isEqualTo(SettingsViewModel.State.SAVING);
        assertThat(model.canSaveProperty().get()).isFalse();
        runBackground();

        assertThat(model.stateProperty().get()).isEqualTo(SettingsViewModel.State.SAVED);
        assertThat(store.current().retry().maxRetries()).isEqualTo(3);
        assertThat(store.current().retry().maxDelayMs()).isZero();
        JsonNode saved = savedSettings();
        assertThat(saved.path("retry").path("maxRetries").asInt()).isEqualTo(3);
        assertThat(saved.path("retry").has("maxElapsedMs")).isFalse();
        assertThat(saved.path("unknownKey").asText()).isEqualTo("kept");
        assertThat(saved.path("providers")
                        .path("local")
                        .path("models")
                        .get(0)
                        .path("contextWindow")
                        .asInt())
                .isEqualTo(8000);
    }

    @Test
    void cancellingLeavesTheFilesAndTheNextWindowAsTheyWere() throws IOException {
        SettingsViewModel model = open();
        model.retry().maxRetries().textProperty().set("7");
        model.chains().newKeyProperty().set("default");
        model.chains().addChain();

        SettingsViewModel reopened = open();

        assertThat(Files.readString(dir.resolve("settings.json"))).isEqualTo(SETTINGS);
        assertThat(reopened.retry().maxRetries().text()).isEqualTo("10");
        assertThat(reopened.chains().chains()).extracting(ChainRow::key).containsExactly("title");
    }

    @Test
    void aChainIsAddedFilledReorderedAndSavedInItsNewOrder() throws IOException {
        SettingsViewModel model = open();
        ChainsTabModel chains = model.chains();
        chains.newKeyProperty().set("default");
        ChainRow row = chains.addChain();
        chains.addModel(row, "local/a");
        chains.addModel(row, "local/b");
        chains.addModel(row, "local/b");

        assertThat(chains.moveDown(row, 0)).isEqualTo(1);
        assertThat(row.models()).containsExactly("local/b", "local/a");
        assertThat(chains.moveUp(row, 0)).isZero();
        model.save();
        runBackground();

        assertThat(store.current().retry().fallbackChains())
                .containsEntry("default", List.of("local/b", "local/a"))
                .containsEntry("title", List.of("local/b", "gone/model"));
        assertThat(savedSettings()
                        .path("retry")
                        .path("fallbackChains")
                        .path("default")
                        .toString())
                .isEqualTo("[\"local/b\",\"local/a\"]");
    }

    @Test
    void unknownModelsInAChainAreFlaggedButDoNotBlockSave() {
        SettingsViewModel model = open();
        ChainRow title = model.chains().chains().getFirst();

        assertThat(model.chains().isConfigured("local/b")).isTrue();
        assertThat(model.chains().isConfigured("gone/model")).isFalse();
        assertThat(title.problemProperty().get()).contains("'gone/model' names provider 'gone'");
        assertThat(model.canSaveProperty().get()).isTrue();
    }

    @Test
    void aRemovedChainIsDeletedFromTheFileAndABadOrDuplicateKeyIsRefused() throws IOException {
        SettingsViewModel model = open();
        model.chains().newKeyProperty().set("title");
        assertThat(model.chains().addChain()).isNull();
        assertThat(model.chains().newKeyErrorProperty().get()).contains("already a chain");
        model.chains().newKeyProperty().set("local/");
        assertThat(model.chains().addChain()).isNull();
        assertThat(model.chains().newKeyErrorProperty().get()).contains("is not a role");

        model.chains().removeChain(model.chains().chains().getFirst());
        model.save();
        runBackground();

        assertThat(savedSettings().path("retry").path("fallbackChains").has("title"))
                .isFalse();
    }

    @Test
    void aProviderWithABadBaseUrlShowsTheReasonAtThatField() {
        SettingsViewModel model = open();
        ProviderRow added = model.providers().addProvider();
        assertThat(added.key().errorProperty().get()).isEqualTo("enter a key, like openai");

        added.key().textProperty().set("ollama");
        added.baseUrl().textProperty().set("localhost:11434");

        assertThat(added.key().errorProperty().get()).isEmpty();
        assertThat(added.baseUrl().errorProperty().get()).contains("must be an absolute http(s) URL");
        assertThat(model.canSaveProperty().get()).isFalse();
        added.baseUrl().textProperty().set("http://127.0.0.1:11434/v1");
        added.models().textProperty().set("llama3.2, qwen3");
        assertThat(model.canSaveProperty().get()).isTrue();
        assertThat(model.chains().configuredModels()).contains("ollama/llama3.2", "ollama/qwen3");
    }

    @Test
    void headersQueryAndStoreRemovedInTheTabAreRemovedFromTheFileAndAMaskedSecretKeepsItsValue() throws IOException {
        Files.writeString(dir.resolve("settings.json"), """
                { "model": "oa/gpt-4.1",
                  "providers": { "oa": { "api": "openai-responses", "baseUrl": "https://api.openai.com/v1",
                                         "models": [ { "id": "gpt-4.1" } ], "store": false,
                                         "headers": { "api-key": "sk-header-secret-0123456789", "X-Title": "Rebound" },
                                         "query": { "api-version": "2024-10-21" } } } }
                """);
        store = SettingsStore.open(ConfigDirectory.at(dir), Clock.systemUTC());
        SettingsViewModel model = open();
        ProviderRow oa = model.providers().providers().getFirst();

        assertThat(oa.headers().text())
                .isEqualTo("api-key: ••••6789\nX-Title: Rebound")
                .doesNotContain("secret");
        assertThat(oa.storeProperty().get()).isFalse();
        oa.headers().textProperty().set("api-key: ••••6789");
        oa.query().textProperty().set("");
        oa.storeProperty().set(true);
        model.save();
        runBackground();

        JsonNode saved = savedSettings().path("providers").path("oa");
        assertThat(saved.path("headers").toString()).isEqualTo("{\"api-key\":\"sk-header-secret-0123456789\"}");
        assertThat(saved.has("query")).isFalse();
        assertThat(saved.has("store")).isFalse();
    }

    @Test
    void testConnectionSendsTheStoredSecretWhereTheTabShowsItsMask() throws IOException {
        Files.writeString(dir.resolve("settings.json"), """
                { "model": "az/gpt-4o",
                  "providers": { "az": { "api": "openai-completions", "baseUrl": "https://x.example/openai",
                                         "models": [ { "id": "gpt-4o" } ],
                                         "headers": { "api-key": "az-header-secret-0123456789" },
                                         "query": { "sig": "sas-signature-0123456789" } } } }
                """);
        store = SettingsStore.open(ConfigDirectory.at(dir), Clock.systemUTC());
        List<ConnectionTester.Target> asked = new ArrayList<>();
        tester = target -> {
            asked.add(target);
            return new ConnectionTester.Result(true, "fine");
        };
        SettingsViewModel model = open();

        model.providers().testConnection(model.providers().providers().getFirst());
        runBackground();

        assertThat(asked).singleElement().satisfies(target -> {
            assertThat(target.headers().get("api-key").literal()).isEqualTo("az-header-secret-0123456789");
            assertThat(target.query().get("sig").literal()).isEqualTo("sas-signature-0123456789");
        });
    }

    @Test
    void renamingAProviderReplacesItAndItsModelsInTheFile() throws IOException {
        SettingsViewModel model = open();
        ProviderRow local = model.providers().providers().getFirst();
        local.key().textProperty().set("lab");
        local.models().textProperty().set("a");

        model.save();
        runBackground();

        JsonNode providers = savedSettings().path("providers");
        assertThat(providers.has("local")).isFalse();
        assertThat(providers.path("lab").path("models").toString())
                .isEqualTo("[{\"id\":\"a\",\"contextWindow\":8000}]");
    }

    @Test
    void aNewKeyIsShownWithItsLastFourCharactersAtMostAndSavedOnlyToCredentialsJson() throws IOException {
        SettingsViewModel model = open();
        ProvidersTabModel providers = typedKey(model, "work", "sk-live-0123456789abcd");

        assertThat(providers.addCredential()).isTrue();
        CredentialRow row = providers.credentials().getLast();
        assertThat(row.display()).isEqualTo("••••abcd");
        assertThat(providers.credentialValueProperty().get()).isEmpty();
        model.save();
        runBackground();

        assertThat(Files.readString(dir.resolve("credentials.json"))).contains("sk-live-0123456789abcd");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("credentials.json"))))
                .isEqualTo("rw-------");
        assertThat(Files.readString(dir.resolve("settings.json"))).doesNotContain("sk-live");
        assertThat(credentials.forProvider("local")).extracting(c -> c.label()).containsExactly("work");
        assertThat(open().providers().credentials().getFirst().display()).isEqualTo("••••abcd");
    }

    @Test
    void aShortKeyShowsNoCharacterAndKeyMistakesAreExplained() {
        assertThat(KeyMask.mask("abc123")).isEqualTo("••••");
        SettingsViewModel model = open();
        ProvidersTabModel providers = model.providers();
        providers.credentialProviderProperty().set("local");
        providers.credentialLabelProperty().set("env");
        providers.credentialFromEnvProperty().set(true);
        providers.credentialValueProperty().set("sk-pasted-key");

        assertThat(providers.addCredential()).isFalse();
        assertThat(providers.credentialErrorProperty().get()).contains("name of an environment variable");
        providers.credentialValueProperty().set("LOCAL_KEY");
        assertThat(providers.addCredential()).isTrue();
        assertThat(providers.credentials().getLast().display()).isEqualTo("from $LOCAL_KEY");
        providers.credentialLabelProperty().set("env");
        providers.credentialValueProperty().set("OTHER");
        assertThat(providers.addCredential()).isFalse();
        assertThat(providers.credentialErrorProperty().get()).contains("already has a key labelled 'env'");
    }

    @Test
    void aRemovedCredentialLeavesCredentialsJsonOnSave() throws IOException {
        credentials.put("local", "old", new dev.rebound.auth.ApiKeySource.Environment("OLD_KEY"));
        SettingsViewModel model = open();
        CredentialRow old = model.providers().credentials().getFirst();
        assertThat(old.display()).isEqualTo("(environment variable OLD_KEY is not set)");

        model.providers().removeCredential(old);
        assertThat(old.removedProperty().get()).isTrue();
        model.save();
        runBackground();

        assertThat(credentials.labels("local")).isEmpty();
    }

    @Test
    void aSaveThatCannotWriteTheFileKeepsEveryEditAndSaysWhy() throws IOException {
        SettingsViewModel model = open();
        model.retry().maxRetries().textProperty().set("4");
        Path file = dir.resolve("settings.json");
        Files.delete(file);
        Files.createDirectories(file.resolve("in-the-way"));

        model.save();
        runBackground();

        assertThat(model.stateProperty().get()).isEqualTo(SettingsViewModel.State.EDITING);
        assertThat(model.messageProperty().get())
                .isEqualTo("Settings were not saved: " + file + " is a folder, not "
                        + "a file. Move or rename that folder, then try again. Your edits are still here.");
        assertThat(model.retry().maxRetries().text()).isEqualTo("4");
        assertThat(model.canSaveProperty().get()).isTrue();
        assertThat(store.current().retry().maxRetries()).isEqualTo(10);
    }

    @Test
    void testConnectionRunsInTheBackgroundWithTheTypedKeyAndShowsTheOutcome() {
        List<String> asked = new ArrayList<>();
        tester = target -> {
            asked.add(target.provider() + " " + target.api() + " " + target.baseUrl() + " " + target.typedKey());
            return new ConnectionTester.Result(false, "refused");
        };
        SettingsViewModel model = open();
        ProvidersTabModel providers = model.providers();
        providers.credentialProviderProperty().set("local");
        providers.credentialLabelProperty().set("new");
        providers.credentialValueProperty().set("sk-typed-key-9999");
        providers.addCredential();
        ProviderRow local = providers.providers().getFirst();

        providers.testConnection(local);
        assertThat(local.testingProperty().get()).isTrue();
        assertThat(local.testResultProperty().get()).isEqualTo("Testing…");
        assertThat(asked).isEmpty();
        runBackground();

        assertThat(asked).containsExactly("local openai-completions http://127.0.0.1:9/v1 sk-typed-key-9999");
        assertThat(local.testingProperty().get()).isFalse();
        assertThat(local.testResultProperty().get()).isEqualTo("✖ refused");
    }

    @Test
    void switchingAPluginSaysItAppliesOnNextStartAndIsSavedThroughThePort() {
        pluginRows = List.of(new PluginsPort.PluginRow("audit", "1.0", "STARTED", "", 12, 0, true));
        SettingsViewModel model = open();
        PluginRowModel audit = model.plugins().plugins().getFirst();
        assertThat(audit.noteBinding().get()).isEmpty();

        audit.enabledProperty().set(false);
        assertThat(audit.noteBinding().get()).isEqualTo("will be disabled; applies on next start");
        model.save();
        runBackground();

        assertThat(switched).hasSize(1);
        assertThat(switched.getFirst()).containsExactly("audit", "false");
    }

    @Test
    void saveWritesTheEditsAsTheyWereWhenPressedAndLocksTheWindowUntilItEnds() throws IOException {
        SettingsViewModel model = open();
        ProvidersTabModel providers = typedKey(model, "work", "sk-live-0123456789abcd");
        assertThat(providers.addCredential()).isTrue();

        model.save();
        assertThat(model.editableProperty().get()).isFalse();
        typedKey(model, "late", "sk-late-0123456789wxyz").addCredential();
        runBackground();

        assertThat(credentials.labels("local")).containsExactly("work");
        assertThat(model.stateProperty().get()).isEqualTo(SettingsViewModel.State.SAVED);
    }

    @Test
    void aCredentialsFileThatCannotBeWrittenIsExplainedWithoutExceptionNames() throws IOException {
        SettingsViewModel model = open();
        ProvidersTabModel providers = typedKey(model, "work", "sk-live-0123456789abcd");
        providers.addCredential();
        Path file = dir.resolve("credentials.json");
        Files.createDirectories(file.resolve("in-the-way"));

        model.save();
        runBackground();

        assertThat(model.messageProperty().get())
                .isEqualTo("Credentials were not saved: " + file + " is a folder, "
                        + "not a file. Move or rename that folder, then try again. Other settings were saved; your credential "
                        + "edits are still here.");
        assertThat(model.editableProperty().get()).isTrue();
        assertThat(providers.credentials()).hasSize(1);
    }
}
