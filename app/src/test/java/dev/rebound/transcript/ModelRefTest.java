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

    @Test
    void equalsAndHashCodeFollowBothParts() {
        ModelRef a = new ModelRef("openai", "gpt-4o");
        assertThat(a).isEqualTo(ModelRef.parse("openai/gpt-4o")).hasSameHashCodeAs(ModelRef.parse("openai/gpt-4o"));
        assertThat(a)
                .isNotEqualTo(new ModelRef("openai", "gpt-4o-mini"))
                .isNotEqualTo(new ModelRef("azure", "gpt-4o"))
                .isNotEqualTo("openai/gpt-4o")
                .isNotEqualTo(null);
        assertThat(new ModelRef("a/b", "c")).isNotEqualTo(new ModelRef("a", "b/c"));
    }
}
