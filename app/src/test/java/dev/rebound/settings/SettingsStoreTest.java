package dev.rebound.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.files.FileProblem;
import dev.rebound.json.Json;
import dev.rebound.transcript.ModelRef;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsStoreTest {
    private static final ObjectMapper MAPPER = Json.newMapper();
    private static final ProviderConfig BUILT_IN = new ProviderConfig(
            "simulator",
            ProviderApi.SIMULATOR,
            null,
            List.of(new ModelConfig("rebound-simulator", 128_000, "Rebound Simulator (offline)")));
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T10:15:00Z"), ZoneOffset.UTC);
    private static final String OPENAI = """
            "providers": { "openai": { "api": "openai-completions", "baseUrl": "https://api.openai.com/v1",
                                       "models": [ { "id": "gpt-4.1-mini" } ] } }""";

    @TempDir
    Path tmp;

    private ConfigDirectory dir;
    private Path file;

    @BeforeEach
    void setUp() {
        dir = ConfigDirectory.at(tmp);
        file = dir.settingsFile();
    }

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text);
    }

    private void write(String content) throws Exception {
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    private JsonNode onDisk() throws Exception {
        return MAPPER.readTree(Files.readString(file));
    }

    /** The files next to settings.json, but its lock file (saves take it, as every Rebound process does). */
    private List<String> filesInDir() throws Exception {
        try (Stream<Path> files = Files.list(tmp)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(name -> !name.equals("settings.json.lock"))
                    .sorted()
                    .toList();
        }
    }

    private SettingsStore open() {
        return SettingsStore.open(dir, CLOCK);
    }

    @Test
    void aMissingFileGivesDefaultsWithoutProblemsAndCreatesNothing() throws Exception {
        SettingsStore store = open();

        assertThat(store.current()).isEqualTo(Settings.DEFAULTS);
        assertThat(store.problems()).isEmpty();
        assertThat(filesInDir()).isEmpty();
    }

    @Test
    void aSaveRemovesTheTemporaryCopyAKilledSaveLeftBehind() throws Exception {
        write("{ \"retry\": { \"maxRetries\": 2 } }");
        // What a SIGKILL between creating and renaming the temporary file leaves (found by ProcessFaultIT): a full
        // copy of the settings, secret headers included, that nothing ever removed.
        Files.writeString(tmp.resolve(".settings.json.8812345678901234567.tmp"), "{ \"retry\": { \"maxRetries\": 9");
        Files.writeString(tmp.resolve(".settings.json.keep.txt"), "not a temporary copy");

        SettingsUpdate update = open().update(json("{ \"retry\": { \"maxRetries\": 4 } }"));

        assertThat(update).isInstanceOf(SettingsUpdate.Applied.class);
        assertThat(filesInDir()).containsExactly(".settings.json.keep.txt", "settings.json");
    }

    @Test
    void readsAValidFile() throws Exception {
        write("{ \"model\": \"openai/gpt-4.1-mini\", " + OPENAI + ", \"retry\": { \"maxRetries\": 2 } }");

        SettingsStore store = open();

        assertThat(store.problems()).isEmpty();
        assertThat(store.current().model()).isEqualTo(new ModelRef("openai", "gpt-4.1-mini"));
        assertThat(store.current().retry().maxRetries()).isEqualTo(2);
    }

    @Test
    void aSyntaxErrorStartsOnDefaultsNamesPathLineAndColumnAndLeavesTheFileUntouched() throws Exception {
        String broken = "{\n  \"retry\": {\n    \"maxRetries\": 3,}\n}\n";
        write(broken);
        byte[] before = Files.readAllBytes(file);
        FileTime mtime = Files.getLastModifiedTime(file);

        SettingsStore store = open();

        assertThat(store.current()).isEqualTo(Settings.DEFAULTS);
        assertThat(store.problems()).hasSize(1);
        FileProblem problem = store.problems().getFirst();
        assertThat(problem.isError()).isTrue();
        assertThat(problem.describe())
                .startsWith(file + " is not valid JSON at line 3, column 21: Unexpected character ('}'")
                .endsWith("Rebound started on default settings and will not change that file until you save settings.");
        assertThat(file).hasBinaryContent(before);
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(mtime);
        assertThat(filesInDir()).containsExactly("settings.json");
    }

    @Test
    void aTopLevelThatIsNotAnObjectIsTreatedLikeASyntaxError() throws Exception {
        write("\n  [ \"model\" ]\n");

        SettingsStore store = open();

        assertThat(store.current()).isEqualTo(Settings.DEFAULTS);
        assertThat(store.problems()).singleElement().satisfies(p -> {
            assertThat(p.isError()).isTrue();
            assertThat(p.message())
                    .contains(
                            file.toString(),
                            "line 2, column 3",
                            "an array",
                            "will not change that file until you save settings");
        });
    }

    @Test
    void aDeliberateSaveAfterACorruptFileKeepsItsBytesAsABackupAndWritesOnlyThePatch() throws Exception {
        String broken = "{ \"retry\": { \"maxRetries\": 3, } \"theme\": \"dark\"";
        write(broken);
        SettingsStore store = open();

        SettingsUpdate result = store.update(json("{ \"retry\": { \"baseDelayMs\": 100 } }"));

        assertThat(result).isInstanceOf(SettingsUpdate.Applied.class);
        Path backup = tmp.resolve("settings.json.bak-20261201T101500Z");
        assertThat(backup).hasBinaryContent(broken.getBytes(StandardCharsets.UTF_8));
        assertThat(onDisk()).isEqualTo(json("{ \"retry\": { \"baseDelayMs\": 100 } }"));
        assertThat(store.problems()).isEmpty();
        assertThat(store.current().retry().baseDelayMs()).isEqualTo(100);
    }

    @Test
    void aSecondSaveAfterTheBackupMergesNormally() throws Exception {
        write("not json");
        SettingsStore store = open();
        store.update(json("{ \"retry\": { \"baseDelayMs\": 100 } }"));

        store.update(json("{ \"retry\": { \"maxRetries\": 1 } }"));

        assertThat(onDisk()).isEqualTo(json("{ \"retry\": { \"baseDelayMs\": 100, \"maxRetries\": 1 } }"));
        assertThat(filesInDir()).containsExactly("settings.json", "settings.json.bak-20261201T101500Z");
    }

    @Test
    void invalidValuesOnLoadKeepTheOtherValuesReportKeyPathsAndLeaveTheFileUntouched() throws Exception {
        write("""
                { "model": "gpt4", %s,
                  "retry": { "maxRetries": -1, "baseDelayMs": 42, "fallbackRevertPolicy": "always" },
                  "timeouts": { "connectMs": 1.5, "idleMs": 7 } }
                """.formatted(OPENAI.replace("openai-completions", "openai-chat")));
        byte[] before = Files.readAllBytes(file);

        SettingsStore store = open();

        assertThat(store.problems())
                .map(FileProblem::describe)
                .containsExactlyInAnyOrder(
                        "providers.openai.api: must be one of openai-completions, openai-responses, anthropic-messages, google-gemini, simulator",
                        "model: 'gpt4' is not a model selector of the form provider/modelId",
                        "retry.maxRetries: must be ≥ 0",
                        "retry.fallbackRevertPolicy: must be one of cooldown-expiry, never",
                        "timeouts.connectMs: must be a whole number");
        Settings current = store.current();
        assertThat(current.model()).isNull();
        assertThat(current.providers()).isEmpty();
        assertThat(current.retry().maxRetries()).isEqualTo(RetrySettings.DEFAULTS.maxRetries());
        assertThat(current.retry().baseDelayMs()).isEqualTo(42);
        assertThat(current.retry().fallbackRevertPolicy()).isEqualTo(RetrySettings.RevertPolicy.COOLDOWN_EXPIRY);
        assertThat(current.timeouts())
                .isEqualTo(new TimeoutSettings(
                        TimeoutSettings.DEFAULTS.connectMs(), TimeoutSettings.DEFAULTS.firstByteMs(), 7));
        assertThat(file).hasBinaryContent(before);
    }

    @Test
    void unknownKeysTopLevelAndNestedSurviveAnUpdate() throws Exception {
        write("""
                { "theme": "dark", "window": { "width": 800 },
                  "retry": { "maxRetries": 3, "futureKnob": [1, 2] },
                  "providers": { "x": { "api": "simulator", "futureField": { "a": true }, "models": [ { "id": "m", "price": 2 } ] } } }
                """);
        SettingsStore store = open();

        SettingsUpdate result = store.update(json("{ \"retry\": { \"maxRetries\": 5 }, \"model\": \"x/m\" }"));

        assertThat(result).isInstanceOf(SettingsUpdate.Applied.class);
        assertThat(onDisk()).isEqualTo(json("""
                { "theme": "dark", "window": { "width": 800 },
                  "retry": { "maxRetries": 5, "futureKnob": [1, 2] },
                  "providers": { "x": { "api": "simulator", "futureField": { "a": true }, "models": [ { "id": "m", "price": 2 } ] } },
                  "model": "x/m" }
                """));
    }

    @Test
    void anUpdateAppliesMergePatchSemantics() throws Exception {
        write("""
                { "model": "openai/gpt-4.1-mini", %s,
                  "retry": { "maxRetries": 3, "fallbackChains": { "default": ["openai/gpt-4.1-mini", "openai/a"] } } }
                """.formatted(OPENAI));
        SettingsStore store = open();

        SettingsUpdate result = store.update(json("""
                { "model": null,
                  "retry": { "baseDelayMs": 10, "fallbackChains": { "default": ["openai/gpt-4.1-mini"] } } }"""));

        assertThat(result).isInstanceOf(SettingsUpdate.Applied.class);
        JsonNode saved = onDisk();
        assertThat(saved.has("model")).isFalse();
        assertThat(saved.get("retry")).isEqualTo(json("""
                { "maxRetries": 3, "fallbackChains": { "default": ["openai/gpt-4.1-mini"] }, "baseDelayMs": 10 }"""));
        Settings current = ((SettingsUpdate.Applied) result).settings();
        assertThat(current).isEqualTo(store.current());
        assertThat(current.model()).isNull();
        assertThat(current.retry().maxRetries()).isEqualTo(3);
        assertThat(current.retry().baseDelayMs()).isEqualTo(10);
        assertThat(current.retry().fallbackChains().get("default")).containsExactly("openai/gpt-4.1-mini");
    }

    @Test
    void anInvalidPatchIsRefusedWholeWithEveryReasonAndChangesNothing() throws Exception {
        write("{ \"retry\": { \"maxRetries\": 3 } }\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        byte[] before = Files.readAllBytes(file);
        FileTime mtime = Files.getLastModifiedTime(file);
        SettingsStore store = open();
        Settings settingsBefore = store.current();
        List<Settings> heard = new ArrayList<>();
        store.addListener(heard::add);

        SettingsUpdate result = store.update(json("""
                { "retry": { "maxRetries": -2, "baseDelayMs": 5 }, "timeouts": { "idleMs": "long" }, "model": "x" }"""));

        assertThat(result)
                .isInstanceOfSatisfying(
                        SettingsUpdate.Rejected.class,
                        rejected -> assertThat(rejected.reasons())
                                .map(FileProblem::describe)
                                .containsExactlyInAnyOrder(
                                        "retry.maxRetries: must be ≥ 0",
                                        "timeouts.idleMs: must be a whole number",
                                        "model: 'x' is not a model selector of the form provider/modelId"));
        assertThat(file).hasBinaryContent(before);
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(mtime);
        assertThat(store.current()).isSameAs(settingsBefore);
        assertThat(store.current().retry().baseDelayMs()).isEqualTo(RetrySettings.DEFAULTS.baseDelayMs());
        assertThat(heard).isEmpty();
        assertThat(filesInDir()).containsExactly("settings.json");
        assertThat(store.update(json("{}"))).isInstanceOf(SettingsUpdate.Applied.class);
        assertThat(onDisk()).isEqualTo(json("{ \"retry\": { \"maxRetries\": 3 } }"));
    }

    @Test
    void anInvalidPatchOnAMissingFileCreatesNoFile() throws Exception {
        SettingsStore store = open();

        SettingsUpdate result = store.update(json("{ \"timeouts\": { \"connectMs\": 0 } }"));

        assertThat(result).isInstanceOf(SettingsUpdate.Rejected.class);
        assertThat(filesInDir()).isEmpty();
    }

    @Test
    void aPatchThatIsNotAnObjectIsRefused() throws Exception {
        SettingsStore store = open();

        SettingsUpdate result = store.update(json("[1]"));

        assertThat(result)
                .isInstanceOfSatisfying(
                        SettingsUpdate.Rejected.class,
                        rejected -> assertThat(rejected.reasons())
                                .singleElement()
                                .satisfies(p -> assertThat(p.isError()).isTrue()));
        assertThat(filesInDir()).isEmpty();
    }

    @Test
    void aPatchWithOnlyAnUnknownModelWarningIsApplied() throws Exception {
        write("{ " + OPENAI + " }");
        SettingsStore store = open();

        SettingsUpdate result = store.update(json("{ \"model\": \"openai/gpt-9\" }"));

        assertThat(result).isInstanceOf(SettingsUpdate.Applied.class);
        assertThat(store.current().model()).isEqualTo(new ModelRef("openai", "gpt-9"));
        assertThat(store.problems()).singleElement().satisfies(p -> {
            assertThat(p.severity()).isEqualTo(FileProblem.Severity.WARNING);
            assertThat(p.keyPath()).isEqualTo("model");
        });
        assertThat(onDisk().get("model").textValue()).isEqualTo("openai/gpt-9");
    }

    @Test
    void listenersHearTheNewSettingsAfterAnAppliedUpdate() throws Exception {
        SettingsStore store = open();
        List<Settings> heard = new ArrayList<>();
        List<Boolean> savedWhenHeard = new ArrayList<>();
        store.addListener(heard::add);
        store.addListener(s -> savedWhenHeard.add(Files.exists(file)));

        store.update(json("{ \"retry\": { \"enabled\": false } }"));

        assertThat(heard)
                .singleElement()
                .satisfies(s -> assertThat(s.retry().enabled()).isFalse());
        assertThat(heard.getFirst()).isSameAs(store.current());
        assertThat(savedWhenHeard).containsExactly(true);
    }

    @Test
    void aFailingListenerDoesNotStopTheOthersOrTheUpdate() throws Exception {
        SettingsStore store = open();
        List<Settings> heard = new ArrayList<>();
        store.addListener(s -> {
            throw new IllegalStateException("listener bug");
        });
        store.addListener(heard::add);

        SettingsUpdate result = store.update(json("{ \"retry\": { \"enabled\": false } }"));

        assertThat(result).isInstanceOf(SettingsUpdate.Applied.class);
        assertThat(heard).hasSize(1);
    }

    @Test
    void savesArePrettyUtf8WithATrailingNewlineAndLeaveNoTemporaryFiles() throws Exception {
        SettingsStore store = open();

        store.update(json("{ \"modelRoles\": { \"title\": \"ollama/llamа3\" }, \"retry\": { \"maxRetries\": 4 } }"));
        store.update(json("{ \"retry\": { \"maxRetries\": 5 } }"));

        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).isEqualTo("""
                {
                  "modelRoles": {
                    "title": "ollama/llamа3"
                  },
                  "retry": {
                    "maxRetries": 5
                  }
                }
                """);
        assertThat(filesInDir()).containsExactly("settings.json");
    }

    @Test
    void effectiveJsonFillsDefaultsAroundTheFileAndKeepsUnknownKeys() throws Exception {
        write("{ \"theme\": \"dark\", \"retry\": { \"maxRetries\": 2, \"futureKnob\": 1 } }");

        JsonNode effective = open().effectiveJson();

        assertThat(effective.get("theme").textValue()).isEqualTo("dark");
        assertThat(effective.get("retry").get("maxRetries").intValue()).isEqualTo(2);
        assertThat(effective.get("retry").get("futureKnob").intValue()).isEqualTo(1);
        assertThat(effective.get("retry").get("baseDelayMs").longValue()).isEqualTo(500);
        assertThat(effective.get("retry").get("fallbackRevertPolicy").textValue())
                .isEqualTo("cooldown-expiry");
        assertThat(effective.get("timeouts"))
                .hasToString("{\"connectMs\":10000,\"firstByteMs\":60000,\"idleMs\":120000}");
        assertThat(SettingsValidator.validate(effective).settings()).isEqualTo(open().current());
    }

    @Test
    void effectiveJsonOfACorruptFileIsTheDefaults() throws Exception {
        write("{ oops");

        JsonNode effective = open().effectiveJson();

        assertThat(SettingsValidator.validate(effective).settings()).isEqualTo(Settings.DEFAULTS);
        assertThat(effective.has("oops")).isFalse();
    }

    @Test
    void anApiKeyInSettingsIsReportedAndNeverInEffectiveJson() throws Exception {
        String canary = "sk-canary-4f9a1c77e2";
        write(
                "{ \"providers\": { \"openai\": { \"api\": \"openai-completions\", \"baseUrl\": \"https://api.openai.com/v1\", "
                        + "\"apiKey\": \"" + canary + "\" } } }");

        SettingsStore store = open();

        assertThat(store.problems()).singleElement().satisfies(p -> {
            assertThat(p.severity()).isEqualTo(FileProblem.Severity.WARNING);
            assertThat(p.keyPath()).isEqualTo("providers.openai.apiKey");
            assertThat(p.message()).contains("credentials.json").doesNotContain(canary);
        });
        assertThat(store.effectiveJson().toString()).doesNotContain(canary).doesNotContain("apiKey");
        assertThat(store.current().toString()).doesNotContain(canary);
    }

    @Test
    void aPatchCannotAddAnApiKey() throws Exception {
        SettingsStore store = open();

        SettingsUpdate result = store.update(json("""
                { "providers": { "openai": { "api": "openai-completions", "baseUrl": "https://api.openai.com/v1",
                                             "apiKey": "sk-canary-4f9a1c77e2" } } }"""));

        assertThat(result)
                .isInstanceOfSatisfying(
                        SettingsUpdate.Rejected.class,
                        rejected -> assertThat(rejected.reasons())
                                .singleElement()
                                .satisfies(p -> {
                                    assertThat(p.keyPath()).isEqualTo("providers.openai.apiKey");
                                    assertThat(p.toString()).doesNotContain("sk-canary");
                                }));
        assertThat(filesInDir()).isEmpty();
    }

    @Test
    void concurrentUpdatesAreSerializedSoNoneIsLost() throws Exception {
        SettingsStore store = open();
        int threads = 4;
        int perThread = 10;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String key = "k" + t;
            workers.add(Thread.ofPlatform().start(() -> {
                for (int i = 1; i <= perThread; i++) {
                    store.update(MAPPER.createObjectNode()
                            .set("counters", MAPPER.createObjectNode().put(key, i)));
                }
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }

        JsonNode counters = onDisk().get("counters");
        for (int t = 0; t < threads; t++) {
            assertThat(counters.get("k" + t).intValue()).isEqualTo(perThread);
        }
        assertThat(filesInDir()).containsExactly("settings.json");
    }

    @Test
    void aBuiltInProviderIsInEffectOnlyWhileTheFileConfiguresNoneAndIsNeverWritten() throws Exception {
        write("{ \"retry\": { \"maxRetries\": 2 } }");
        SettingsStore store = SettingsStore.open(dir, CLOCK, BUILT_IN);

        assertThat(store.current().providers()).containsOnlyKeys("simulator");
        assertThat(store.current().allModels())
                .extracting(ModelRef::selector)
                .containsExactly("simulator/rebound-simulator");
        assertThat(store.usesBuiltInProvider()).isTrue();
        assertThat(store.effectiveJson().path("providers").isEmpty()).isTrue();

        store.update(json("{ \"retry\": { \"baseDelayMs\": 20 } }"));
        assertThat(store.current().providers()).containsOnlyKeys("simulator");
        assertThat(onDisk().has("providers")).isFalse();

        store.update(json("{" + OPENAI + "}"));
        assertThat(store.current().providers()).containsOnlyKeys("openai");
        assertThat(store.usesBuiltInProvider()).isFalse();
        assertThat(onDisk().path("providers").has("simulator")).isFalse();
    }

    @Test
    void aBrokenFileOrAnInvalidProviderGetsNoBuiltInProviderSoItsErrorsShow() throws Exception {
        write("{ \"providers\": ");
        SettingsStore notJson = SettingsStore.open(dir, CLOCK, BUILT_IN);
        assertThat(notJson.current().providers()).isEmpty();
        assertThat(notJson.usesBuiltInProvider()).isFalse();
        assertThat(notJson.problems())
                .singleElement()
                .satisfies(p -> assertThat(p.describe()).contains("is not valid JSON"));

        write("{ \"providers\": { \"openai\": { \"api\": \"openai-completions\", \"baseUrl\": \"not a url\", "
                + "\"models\": [ { \"id\": \"gpt-4o\" } ] } } }");
        SettingsStore badProvider = SettingsStore.open(dir, CLOCK, BUILT_IN);
        assertThat(badProvider.current().providers()).isEmpty();
        assertThat(badProvider.usesBuiltInProvider()).isFalse();
        assertThat(badProvider.problems())
                .anySatisfy(p -> assertThat(p.describe()).contains("baseUrl"));

        for (String noProviders : List.of("", "{}", "{ \"providers\": {} }", "{ \"providers\": null }")) {
            write(noProviders);
            assertThat(SettingsStore.open(dir, CLOCK, BUILT_IN).usesBuiltInProvider())
                    .as(noProviders)
                    .isTrue();
        }
        Files.delete(file);
        assertThat(SettingsStore.open(dir, CLOCK, BUILT_IN).usesBuiltInProvider())
                .isTrue();
    }

    @Test
    void twoProcessesSavingInTurnKeepBothChangesAndTheSecondSeesTheFirsts() throws Exception {
        write("{ " + OPENAI + " }");
        SettingsStore a = open();
        SettingsStore b = open();

        a.update(json("{ \"retry\": { \"maxRetries\": 3 } }"));
        SettingsUpdate second = b.update(json("{ \"timeouts\": { \"idleMs\": 5000 } }"));

        assertThat(onDisk().path("retry").path("maxRetries").asInt()).isEqualTo(3);
        assertThat(onDisk().path("timeouts").path("idleMs").asInt()).isEqualTo(5000);
        assertThat(((SettingsUpdate.Applied) second).settings().retry().maxRetries())
                .isEqualTo(3);
        assertThat(b.current().retry().maxRetries()).isEqualTo(3);
    }

    @Test
    void aChangeMadeOutsideIsPickedUpAndTheListenersAreTold() throws Exception {
        write("{ " + OPENAI + " }");
        SettingsStore store = open();
        List<Settings> told = new java.util.ArrayList<>();
        store.addListener(told::add);
        SettingsStore other = open();
        other.update(json("{ \"retry\": { \"maxRetries\": 4 } }"));

        store.reloadIfChanged();
        store.reloadIfChanged();

        assertThat(store.current().retry().maxRetries()).isEqualTo(4);
        assertThat(told).as("told once: the second check saw no change").hasSize(1);
    }

    @Test
    void aHandEditThatBreaksTheFileKeepsTheSettingsSaysSoAndASaveKeepsTheLastGoodOnesAndTheBrokenFile()
            throws Exception {
        write("{ " + OPENAI + ", \"retry\": { \"maxRetries\": 7 } }");
        SettingsStore store = open();
        List<String> said = new java.util.ArrayList<>();
        store.addExternalChangeListener(said::add);
        write("{ \"retry\": { \"maxRetries\": 2, } }");
        Files.setLastModifiedTime(
                file, java.nio.file.attribute.FileTime.from(CLOCK.instant().plusSeconds(60)));

        store.reloadIfChanged();
        store.update(json("{ \"timeouts\": { \"idleMs\": 9000 } }"));

        assertThat(said)
                .singleElement()
                .asString()
                .contains("cannot be read any more")
                .contains("line 1");
        assertThat(store.current().retry().maxRetries()).isEqualTo(7);
        assertThat(onDisk().path("retry").path("maxRetries").asInt())
                .as("the last good settings")
                .isEqualTo(7);
        assertThat(onDisk().path("timeouts").path("idleMs").asInt()).isEqualTo(9000);
        assertThat(onDisk().path("providers").has("openai")).isTrue();
        assertThat(filesInDir()).anyMatch(name -> name.startsWith("settings.json.bak-"));
    }

    @Test
    void aHandEditWithAWrongValueAppliesTheRestAndNamesTheWrongOne() throws Exception {
        write("{ " + OPENAI + " }");
        SettingsStore store = open();
        List<String> said = new java.util.ArrayList<>();
        store.addExternalChangeListener(said::add);
        write("{ " + OPENAI + ", \"retry\": { \"maxRetries\": -1, \"baseDelayMs\": 900 } }");
        Files.setLastModifiedTime(
                file, java.nio.file.attribute.FileTime.from(CLOCK.instant().plusSeconds(60)));

        store.reloadIfChanged();

        assertThat(store.current().retry().baseDelayMs()).isEqualTo(900);
        assertThat(said).singleElement().asString().contains("retry.maxRetries");
    }
}
