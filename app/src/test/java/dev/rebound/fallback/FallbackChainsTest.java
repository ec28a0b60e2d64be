package dev.rebound.fallback;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.ModelRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FallbackChainsTest {
    private static final ModelRef SONNET = ModelRef.parse("anthropic/sonnet");
    private static final ModelRef HAIKU = ModelRef.parse("anthropic/haiku");
    private static final ModelRef GPT = ModelRef.parse("openai/gpt");
    private static final ModelRef LLAMA = ModelRef.parse("ollama/llama");

    private static Settings settings(Map<String, List<String>> chains) {
        Map<String, ProviderConfig> providers = new LinkedHashMap<>();
        providers.put(
                "anthropic",
                new ProviderConfig(
                        "anthropic",
                        ProviderApi.OPENAI_COMPLETIONS,
                        "http://x/v1",
                        List.of(new ModelConfig("sonnet", null), new ModelConfig("haiku", null))));
        providers.put(
                "openai",
                new ProviderConfig(
                        "openai",
                        ProviderApi.OPENAI_COMPLETIONS,
                        "http://x/v1",
                        List.of(new ModelConfig("gpt", null))));
        providers.put(
                "ollama",
                new ProviderConfig(
                        "ollama",
                        ProviderApi.OPENAI_COMPLETIONS,
                        "http://x/v1",
                        List.of(new ModelConfig("llama", null))));
        RetrySettings d = RetrySettings.DEFAULTS;
        return new Settings(
                SONNET,
                Map.of(),
                providers,
                new RetrySettings(
                        true, 10, 500, 300_000, 600_000, true, chains, d.fallbackRevertPolicy(), d.refusalPinMs()),
                null);
    }

    @Test
    void theMostSpecificKeyWinsExactThenProviderWildcardThenRoleThenDefault() {
        Map<String, List<String>> chains = Map.of(
                "anthropic/sonnet", List.of("openai/gpt"),
                "anthropic/*", List.of("ollama/llama"),
                "title", List.of("anthropic/haiku"),
                "default", List.of("ollama/llama", "openai/gpt"));
        Settings s = settings(chains);
        assertThat(FallbackChains.resolve(s, SONNET, "default")).hasValueSatisfying(r -> {
            assertThat(r.key()).isEqualTo("anthropic/sonnet");
            assertThat(r.models()).containsExactly(SONNET, GPT);
        });
        assertThat(FallbackChains.resolve(s, HAIKU, "default"))
                .hasValueSatisfying(r -> assertThat(r.key()).isEqualTo("anthropic/*"));
        assertThat(FallbackChains.resolve(s, GPT, "title")).hasValueSatisfying(r -> {
            assertThat(r.key()).isEqualTo("title");
            assertThat(r.models()).containsExactly(GPT, HAIKU);
        });
        assertThat(FallbackChains.resolve(s, GPT, "default")).hasValueSatisfying(r -> {
            assertThat(r.key()).isEqualTo("default");
            assertThat(r.models()).as("the primary once, first").containsExactly(GPT, LLAMA);
        });
    }

    @Test
    void malformedAndUnknownEntriesAreSkippedAndNoKeyMeansNoChain() {
        Settings s = settings(Map.of("default", List.of("not a selector", "openai/unknown", "ollama/llama")));
        assertThat(FallbackChains.resolve(s, SONNET, "default"))
                .hasValueSatisfying(r -> assertThat(r.models()).containsExactly(SONNET, LLAMA));
        assertThat(FallbackChains.resolve(settings(Map.of()), SONNET, "default"))
                .isEmpty();
    }
}
