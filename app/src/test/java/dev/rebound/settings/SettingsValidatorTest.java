package dev.rebound.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.files.FileProblem;
import dev.rebound.json.Json;
import dev.rebound.transcript.ModelRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SettingsValidatorTest {
    private static final String PROVIDERS = """
            "providers": {
              "openai": { "api": "openai-completions", "baseUrl": "https://api.openai.com/v1",
                          "models": [ { "id": "gpt-4.1-mini", "contextWindow": 1047576 }, { "id": "gpt-4.1-nano" } ] },
              "anthropic": { "api": "anthropic-messages", "baseUrl": "https://api.anthropic.com",
                             "models": [ { "id": "claude-sonnet-4-5", "contextWindow": 200000 } ] },
              "ollama": { "api": "openai-completions", "baseUrl": "http://127.0.0.1:11434/v1",
                          "models": [ { "id": "llama3.2" } ] },
              "sim": { "api": "simulator", "models": [ { "id": "echo" } ] }
            }""";

    private static SettingsValidator.Result validate(String json) throws Exception {
        return SettingsValidator.validate(Json.newMapper().readTree(json));
    }

    private static List<String> described(SettingsValidator.Result result) {
        return result.problems().stream().map(FileProblem::describe).toList();
    }

    @Test
    void readsTheSampleOfTheSpecWithoutProblems() throws Exception {
        SettingsValidator.Result result = validate("""
                {
                  "model": "openai/gpt-4.1-mini",
                  "modelRoles": { "title": "openai/gpt-4.1-nano" },
                  %s,
                  "retry": {
                    "enabled": true, "maxRetries": 7, "baseDelayMs": 250, "maxDelayMs": 0, "maxElapsedMs": -1,
                    "modelFallback": false,
                    "fallbackChains": { "default": ["anthropic/claude-sonnet-4-5", "ollama/llama3.2"],
                                        "ollama/*": ["sim/echo"], "openai/gpt-4.1-mini": ["ollama/llama3.2"] },
                    "fallbackRevertPolicy": "never",
                    "refusalPinMs": 0
                  },
                  "timeouts": { "connectMs": 1000, "firstByteMs": 2000, "idleMs": 3000 }
                }""".formatted(PROVIDERS));

        assertThat(result.problems()).isEmpty();
        Settings s = result.settings();
        assertThat(s.model()).isEqualTo(new ModelRef("openai", "gpt-4.1-mini"));
        assertThat(s.modelRoles()).containsExactly(Map.entry("title", new ModelRef("openai", "gpt-4.1-nano")));
        assertThat(s.providers()).containsOnlyKeys("openai", "anthropic", "ollama", "sim");
        assertThat(s.providers().keySet()).containsExactly("openai", "anthropic", "ollama", "sim");
        assertThat(s.providers().get("openai"))
                .isEqualTo(new ProviderConfig(
                        "openai",
                        ProviderApi.OPENAI_COMPLETIONS,
                        "https://api.openai.com/v1",
                        List.of(new ModelConfig("gpt-4.1-mini", 1047576), new ModelConfig("gpt-4.1-nano", null))));
        assertThat(s.providers().get("sim").baseUrl()).isNull();
        assertThat(s.retry())
                .isEqualTo(new RetrySettings(
                        true,
                        7,
                        250,
                        0,
                        -1,
                        false,
                        Map.of(
                                "default",
                                List.of("anthropic/claude-sonnet-4-5", "ollama/llama3.2"),
                                "ollama/*",
                                List.of("sim/echo"),
                                "openai/gpt-4.1-mini",
                                List.of("ollama/llama3.2")),
                        RetrySettings.RevertPolicy.NEVER,
                        0));
        assertThat(s.timeouts()).isEqualTo(new TimeoutSettings(1000, 2000, 3000));
    }

    @Test
    void limitsAreReadAndValuesTooSmallToHoldAnAnswerAreRefusedWithTheirPath() throws Exception {
        SettingsValidator.Result ok =
                validate("{ \"limits\": { \"maxReplyChars\": 5000000, \"maxEventBytes\": 1048576 } }");
        SettingsValidator.Result bad = validate("{ \"limits\": { \"maxReplyChars\": 10, \"maxResponseBytes\": -1 } }");

        assertThat(ok.problems()).isEmpty();
        assertThat(ok.settings().limits())
                .isEqualTo(new LimitSettings(5_000_000, 1_048_576, LimitSettings.DEFAULTS.maxResponseBytes()));
        assertThat(described(bad)).hasSize(2).allMatch(p -> p.startsWith("limits.max"));
        assertThat(bad.settings().limits()).isEqualTo(LimitSettings.DEFAULTS);
    }

    @Test
    void aSystemPromptIsAStringOfBoundedLengthAndAnythingElseIsRefusedWithItsPath() throws Exception {
        assertThat(validate("{ \"systemPrompt\": \"Be brief.\\nUse metric units.\" }")
                        .settings()
                        .systemPrompt())
                .isEqualTo("Be brief.\nUse metric units.");
        assertThat(validate("{}").settings().systemPrompt()).isEmpty();
        assertThat(validate("{ \"systemPrompt\": null }").problems()).isEmpty();
        assertThat(described(validate("{ \"systemPrompt\": [\"Be brief.\"] }")))
                .singleElement()
                .satisfies(p -> assertThat(p).startsWith("systemPrompt").contains("must be a string"));
        String huge = "x".repeat(SettingsValidator.MAX_SYSTEM_PROMPT + 1);
        SettingsValidator.Result tooLong = validate("{ \"systemPrompt\": \"" + huge + "\" }");
        assertThat(described(tooLong))
                .singleElement()
                .satisfies(p -> assertThat(p).contains("at most 100,000"));
        assertThat(tooLong.settings().systemPrompt()).isEmpty();
    }

    @Test
    void providerHeadersAndQueryAreReadAndEveryWrongEntryIsNamedByItsPath() throws Exception {
        SettingsValidator.Result result = validate("""
                { "providers": { "azure": { "api": "openai-completions", "baseUrl": "https://x.example/openai",
                    "headers": { "api-key": { "env": "AZURE_KEY" }, "X-Title": "Rebound", "Bad Name": "x",
                                 "Content-Type": "text/plain", "x-title": "again", "X-Num": 5,
                                 "X-Env": { "env": "1BAD" }, "X-Accented": "Café",
                                 "X-Key": { "credential": true }, "X-No-Key": { "credential": false } },
                    "query": { "api-version": "2024-10-21" }, "store": "yes" } } }""");

        ProviderConfig azure = result.settings().providers().get("azure");
        assertThat(azure.headers())
                .containsExactly(
                        Map.entry("api-key", ConfigValue.fromEnv("AZURE_KEY")),
                        Map.entry("X-Title", ConfigValue.of("Rebound")),
                        Map.entry("X-Key", ConfigValue.fromCredential()));
        assertThat(azure.query()).containsExactly(Map.entry("api-version", ConfigValue.of("2024-10-21")));
        assertThat(described(result))
                .containsExactlyInAnyOrder(
                        "providers.azure.headers[\"Bad Name\"]: is not a valid HTTP header name",
                        "providers.azure.headers.Content-Type: is set by Rebound itself and cannot be replaced",
                        "providers.azure.headers.x-title: repeats a header name (names are not case-sensitive)",
                        "providers.azure.headers.X-Num: must be a string, {\"env\": \"NAME\"} to read the value from an "
                                + "environment variable, or {\"credential\": true} for the provider's key from "
                                + "credentials.json",
                        "providers.azure.headers.X-No-Key.credential: must be true (the provider's key from "
                                + "credentials.json)",
                        "providers.azure.headers.X-Env.env: must name an environment variable (letters, digits and _)",
                        "providers.azure.headers.X-Accented: a header value must be printable ASCII (no line breaks, no "
                                + "accented letters)",
                        "providers.azure.store: is only used by openai-responses providers; it is ignored here",
                        "providers.azure.store: must be true or false");
    }

    @Test
    void aSimulatorMayNameTheFormatItIsSpokenToInAndOnlyASimulator() throws Exception {
        SettingsValidator.Result result = validate("""
                { "providers": {
                    "sim": { "api": "simulator", "format": "google-gemini" },
                    "simr": { "api": "simulator", "format": "openai-responses", "store": false },
                    "bad": { "api": "simulator", "format": "simulator" },
                    "real": { "api": "openai-completions", "baseUrl": "https://x.example/v1", "format": "google-gemini" } } }""");

        assertThat(result.settings().providers().get("sim").format()).isEqualTo(ProviderApi.GOOGLE_GEMINI);
        assertThat(result.settings().providers().get("real").format()).isNull();
        assertThat(result.settings().providers().get("simr").store()).isFalse();
        assertThat(described(result))
                .containsExactly(
                        "providers.bad.format: must be one of openai-completions, openai-responses, anthropic-messages, "
                                + "google-gemini",
                        "providers.real.format: is only used by simulator providers; it is ignored here");
    }

    @Test
    void anEmptyDocumentGivesTheDefaults() throws Exception {
        SettingsValidator.Result result = validate("{}");

        assertThat(result.problems()).isEmpty();
        assertThat(result.settings()).isEqualTo(Settings.DEFAULTS);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "retry.maxRetries        | -1        | retry.maxRetries: must be ≥ 0",
                "retry.maxRetries        | 1001      | retry.maxRetries: must be ≤ 1000",
                "retry.maxRetries        | 2.5       | retry.maxRetries: must be a whole number",
                "retry.maxRetries        | '3'       | retry.maxRetries: must be a whole number",
                "retry.maxRetries        | [3]       | retry.maxRetries: must be a whole number",
                "retry.maxRetries        | {}        | retry.maxRetries: must be a whole number",
                "retry.baseDelayMs       | 3600001   | retry.baseDelayMs: must be ≤ 3600000",
                "retry.baseDelayMs       | -5        | retry.baseDelayMs: must be ≥ 0",
                "retry.refusalPinMs      | -1        | retry.refusalPinMs: must be ≥ 0",
                "retry.enabled           | 'yes'     | retry.enabled: must be true or false",
                "retry.modelFallback     | 1         | retry.modelFallback: must be true or false",
                "retry.fallbackRevertPolicy | 'sometimes' | retry.fallbackRevertPolicy: must be one of cooldown-expiry, never",
                "timeouts.connectMs      | 0         | timeouts.connectMs: must be > 0",
                "timeouts.idleMs         | -1        | timeouts.idleMs: must be > 0",
                "timeouts.firstByteMs    | 1.5       | timeouts.firstByteMs: must be a whole number",
                "model                   | 'gpt4'    | model: 'gpt4' is not a model selector of the form provider/modelId",
                "model                   | 42        | model: must be a model selector string (provider/modelId)",
                "retry                   | true      | retry: must be an object",
                "timeouts                | []        | timeouts: must be an object",
                "providers               | []        | providers: must be an object",
                "modelRoles              | 'x/y'     | modelRoles: must be an object",
            })
    void reportsAnInvalidValueWithItsKeyPathAndUsesTheDefault(String keyPath, String value, String expected)
            throws Exception {
        String[] keys = keyPath.split("\\.");
        String json = keys.length == 1
                ? "{\"" + keys[0] + "\": " + value.replace('\'', '"') + "}"
                : "{\"" + keys[0] + "\": {\"" + keys[1] + "\": " + value.replace('\'', '"') + "}}";

        SettingsValidator.Result result = validate(json);

        assertThat(described(result)).containsExactly(expected);
        assertThat(result.problems()).allMatch(FileProblem::isError);
        assertThat(result.settings()).isEqualTo(Settings.DEFAULTS);
    }

    @Test
    void keepsTheValidValuesNextToAnInvalidOne() throws Exception {
        SettingsValidator.Result result = validate("""
                { "retry": { "maxRetries": -1, "baseDelayMs": 42, "enabled": false },
                  "timeouts": { "connectMs": "soon", "idleMs": 5 } }""");

        assertThat(described(result))
                .containsExactly("retry.maxRetries: must be ≥ 0", "timeouts.connectMs: must be a whole number");
        assertThat(result.settings().retry().maxRetries()).isEqualTo(RetrySettings.DEFAULTS.maxRetries());
        assertThat(result.settings().retry().baseDelayMs()).isEqualTo(42);
        assertThat(result.settings().retry().enabled()).isFalse();
        assertThat(result.settings().timeouts())
                .isEqualTo(new TimeoutSettings(
                        TimeoutSettings.DEFAULTS.connectMs(), TimeoutSettings.DEFAULTS.firstByteMs(), 5));
    }

    @Test
    void acceptsWholeNumbersWrittenWithADecimalPointAndAnyLongForTheDisablableCaps() throws Exception {
        SettingsValidator.Result result = validate("""
                { "retry": { "maxRetries": 3.0, "maxDelayMs": -9223372036854775808, "maxElapsedMs": 9223372036854775807 } }""");

        assertThat(result.problems()).isEmpty();
        assertThat(result.settings().retry().maxRetries()).isEqualTo(3);
        assertThat(result.settings().retry().maxDelayMs()).isEqualTo(Long.MIN_VALUE);
        assertThat(result.settings().retry().maxElapsedMs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aNumberBeyondTheLongRangeIsOutOfRange() throws Exception {
        SettingsValidator.Result result = validate("{ \"retry\": { \"maxDelayMs\": 99999999999999999999 } }");

        assertThat(described(result)).containsExactly("retry.maxDelayMs: must be ≤ 9223372036854775807");
    }

    @Test
    void aProviderNeedsAKnownApiAndAnAbsoluteHttpBaseUrlExceptTheSimulator() throws Exception {
        SettingsValidator.Result result = validate("""
                { "providers": {
                    "openai": { "api": "openai-chat", "baseUrl": "https://api.openai.com/v1" },
                    "noapi": { "baseUrl": "https://example.com" },
                    "nourl": { "api": "anthropic-messages" },
                    "relative": { "api": "openai-completions", "baseUrl": "api.example.com/v1" },
                    "ftp": { "api": "openai-responses", "baseUrl": "ftp://example.com" },
                    "sim": { "api": "simulator" },
                    "ok": { "api": "openai-responses", "baseUrl": "http://localhost:1234" }
                } }""");

        assertThat(described(result))
                .containsExactly(
                        "providers.openai.api: must be one of openai-completions, openai-responses, anthropic-messages, google-gemini, simulator",
                        "providers.noapi.api: is required; must be one of openai-completions, openai-responses, "
                                + "anthropic-messages, google-gemini, simulator",
                        "providers.nourl.baseUrl: is required (the base URL of the provider's API, like https://api.openai.com/v1)",
                        "providers.relative.baseUrl: 'api.example.com/v1' must be an absolute http(s) URL, like "
                                + "https://api.openai.com/v1",
                        "providers.ftp.baseUrl: 'ftp://example.com' must be an absolute http(s) URL, like https://api.openai.com/v1");
        assertThat(result.settings().providers()).containsOnlyKeys("sim", "ok");
    }

    @Test
    void modelsNeedUniqueNonEmptyIdsAndPositiveContextWindows() throws Exception {
        SettingsValidator.Result result = validate("""
                { "providers": { "p": { "api": "openai-completions", "baseUrl": "https://x.example",
                    "models": [ { "id": "a" }, { "id": "a" }, { "id": "" }, {}, "b", { "id": "c", "contextWindow": 0 },
                                { "id": "d", "contextWindow": 8192.5 }, { "id": "e", "contextWindow": 4096 } ] },
                  "q": { "api": "simulator", "models": { "id": "x" } } } }""");

        assertThat(described(result))
                .containsExactly(
                        "providers.p.models[1].id: duplicate model id 'a'",
                        "providers.p.models[2].id: must be a non-empty string without surrounding spaces",
                        "providers.p.models[3].id: must be a non-empty string without surrounding spaces",
                        "providers.p.models[4]: must be an object with an id",
                        "providers.p.models[5].contextWindow: must be > 0",
                        "providers.p.models[6].contextWindow: must be a whole number",
                        "providers.q.models: must be an array of models ({\"id\": ...})");
        assertThat(result.settings().providers().get("p").models())
                .containsExactly(
                        new ModelConfig("a", null),
                        new ModelConfig("c", null),
                        new ModelConfig("d", null),
                        new ModelConfig("e", 4096));
        assertThat(result.settings().providers().get("q").models()).isEmpty();
    }

    @Test
    void aModelMayHaveADisplayNameThatIsANonEmptyString() throws Exception {
        SettingsValidator.Result result = validate("""
                { "providers": { "p": { "api": "openai-completions", "baseUrl": "https://x.example",
                    "models": [ { "id": "a", "name": " Model A " }, { "id": "b", "name": "" },
                                { "id": "c", "name": 3 } ] } } }""");

        assertThat(described(result))
                .containsExactly(
                        "providers.p.models[1].name: must be a non-empty string",
                        "providers.p.models[2].name: must be a non-empty string");
        assertThat(result.settings().providers().get("p").models())
                .containsExactly(
                        new ModelConfig("a", null, "Model A"), new ModelConfig("b", null), new ModelConfig("c", null));
    }

    @Test
    void providerKeysCannotContainASlashBecauseSelectorsSplitThere() throws Exception {
        SettingsValidator.Result result = validate("{ \"providers\": { \"open/ai\": { \"api\": \"simulator\" } } }");

        assertThat(described(result))
                .containsExactly(
                        "providers[\"open/ai\"]: a provider key must be non-empty, without '/' and without surrounding spaces");
    }

    @Test
    void malformedSelectorsAreErrorsButInFallbackChainsWarningsThatSkipTheEntry() throws Exception {
        SettingsValidator.Result result = validate("""
                { %s,
                  "modelRoles": { "title": "nano" },
                  "retry": { "fallbackChains": { "default": ["anthropic/claude-sonnet-4-5", "llama", 3],
                                                 "/x": [], "title": "openai/gpt-4.1-nano" } } }""".formatted(PROVIDERS));

        assertThat(described(result))
                .containsExactly(
                        "modelRoles.title: 'nano' is not a model selector of the form provider/modelId",
                        "retry.fallbackChains.default[1]: 'llama' is not a model selector of the form provider/modelId; "
                                + "this entry is skipped",
                        "retry.fallbackChains.default[2]: must be a model selector string (provider/modelId); this entry is "
                                + "skipped",
                        "retry.fallbackChains[\"/x\"]: '/x' is not a model selector of the form provider/modelId; this entry "
                                + "is skipped",
                        "retry.fallbackChains.title: must be an array of model selectors (provider/modelId); this entry is "
                                + "skipped");
        assertThat(result.problems())
                .filteredOn(FileProblem::isError)
                .extracting(FileProblem::keyPath)
                .containsExactly("modelRoles.title");
        assertThat(result.settings().modelRoles()).isEmpty();
        assertThat(result.settings().retry().fallbackChains())
                .containsExactly(Map.entry("default", List.of("anthropic/claude-sonnet-4-5")));
    }

    @Test
    void referencesToModelsThatAreNotConfiguredAreOnlyWarnings() throws Exception {
        SettingsValidator.Result result = validate("""
                { %s,
                  "model": "openai/gpt-5",
                  "modelRoles": { "title": "mistral/small" },
                  "retry": { "fallbackChains": { "default": ["groq/llama"], "deepseek/*": [], "openai/o9": [] } } }""".formatted(PROVIDERS));

        assertThat(result.hasErrors()).isFalse();
        assertThat(result.problems()).allMatch(p -> p.severity() == FileProblem.Severity.WARNING);
        assertThat(described(result))
                .containsExactly(
                        "model: 'openai/gpt-5' is not among the models of provider 'openai'",
                        "modelRoles.title: 'mistral/small' names provider 'mistral', which is not configured in providers",
                        "retry.fallbackChains.default[0]: 'groq/llama' names provider 'groq', which is not configured in providers; "
                                + "this entry is skipped",
                        "retry.fallbackChains[\"deepseek/*\"]: provider 'deepseek' is not configured in providers",
                        "retry.fallbackChains[\"openai/o9\"]: 'openai/o9' is not among the models of provider 'openai'");
        assertThat(result.settings().model()).isEqualTo(new ModelRef("openai", "gpt-5"));
        assertThat(result.settings().retry().fallbackChains()).containsKeys("default", "deepseek/*", "openai/o9");
    }

    @Test
    void unknownKeysAnywhereAreNoProblem() throws Exception {
        SettingsValidator.Result result = validate("""
                { "theme": "dark", "retry": { "futureKnob": 3 }, "timeouts": { "dnsMs": 1 },
                  "providers": { "x": { "api": "simulator", "futureField": true, "models": [ { "id": "m", "price": 1 } ] } } }""");

        assertThat(result.problems()).isEmpty();
    }

    @Test
    void anApiKeyInSettingsIsAWarningAndIsNotRepeated() throws Exception {
        SettingsValidator.Result result = validate("""
                { "providers": { "openai": { "api": "openai-completions", "baseUrl": "https://api.openai.com/v1",
                                             "apiKey": "sk-canary-0123456789" } } }""");

        assertThat(described(result))
                .containsExactly(
                        "providers.openai.apiKey: API keys do not belong in "
                                + "settings.json, which is not kept secret; move the key to credentials.json. It is ignored here.");
        assertThat(result.problems()).noneMatch(FileProblem::isError);
        assertThat(result.settings().toString()).doesNotContain("canary");
    }

    @Test
    void nullMeansNotSet() throws Exception {
        SettingsValidator.Result result =
                validate("{ \"model\": null, \"retry\": { \"maxRetries\": null }, \"timeouts\": null, "
                        + "\"providers\": { \"x\": null } }");

        assertThat(result.problems()).isEmpty();
        assertThat(result.settings()).isEqualTo(Settings.DEFAULTS);
    }

    @Test
    void aDocumentThatIsNotAnObjectIsAnError() {
        JsonNode array = Json.newMapper().createArrayNode();

        SettingsValidator.Result result = SettingsValidator.validate(array);

        assertThat(described(result)).containsExactly("settings must be a JSON object");
        assertThat(result.settings()).isEqualTo(Settings.DEFAULTS);
    }

    @Test
    void pluginsIsAnObjectOfObjectsWhoseEnabledSwitchIsABoolean() throws Exception {
        assertThat(validate("{\"plugins\": {\"retry-journal\": {\"enabled\": false, \"file\": \"x\"}}}")
                        .problems())
                .isEmpty();
        assertThat(described(validate("{\"plugins\": []}"))).containsExactly("plugins: must be an object");
        assertThat(described(validate("{\"plugins\": {\"a\": true, \"b\": {\"enabled\": \"no\"}}}")))
                .containsExactly(
                        "plugins.a: must be an object with the plugin's settings, e.g. {\"enabled\": false}",
                        "plugins.b.enabled: must be true or false");
    }
}
