package dev.rebound.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ModelRefTest {

    @Test
    void aModelIsWrittenProviderSlashIdEvenWhenTheIdHasSlashes() {
        assertThat(new ModelRef("openrouter", "meta-llama/llama-3.1-70b"))
                .hasToString("openrouter/meta-llama/llama-3.1-70b");
    }

    @Test
    void bothPartsAreRequired() {
        assertThatThrownBy(() -> new ModelRef(null, "m")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new ModelRef("p", null)).isInstanceOf(NullPointerException.class);
    }
}
