package dev.rebound.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ModelRefTest {

    @Test
    void splitsAtTheFirstSlashSoModelIdsMayContainSlashes() {
        ModelRef ref = ModelRef.parse("openrouter/anthropic/claude-sonnet-4.5");
        assertThat(ref.provider()).isEqualTo("openrouter");
        assertThat(ref.id()).isEqualTo("anthropic/claude-sonnet-4.5");
        assertThat(ref.selector()).isEqualTo("openrouter/anthropic/claude-sonnet-4.5");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "gpt-4", "/gpt-4", "openai/", " openai/gpt-4", "openai/gpt-4 "})
    void rejectsTextThatIsNotProviderSlashModel(String text) {
        assertThatThrownBy(() -> ModelRef.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("provider/modelId");
    }
}
