package dev.rebound.ui.settings.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.settings.ConfigValue;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Providers tab's one-entry-per-line form of headers and query values, and its way back to settings.json. */
class ExtrasTextTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyFormOfValueSurvivesTheTextFormAndBack() throws Exception {
        String stored = """
                { "api-key": { "credential": true }, "X-Token": { "env": "TOKEN" }, "X-Title": "Rebound",
                  "X-Literal-Var": "${NOT_A_VARIABLE}", "X-Literal-Key": "<key>" }""";

        String text = ExtrasText.HEADERS.format(JSON.readTree(stored));
        ExtrasText.Parsed parsed = ExtrasText.HEADERS.parse(text);

        assertThat(text)
                .isEqualTo("api-key: <key>\nX-Token: ${TOKEN}\nX-Title: Rebound\nX-Literal-Var: $${NOT_A_VARIABLE}\n"
                        + "X-Literal-Key: <<key>");
        assertThat(parsed.values())
                .containsExactly(
                        Map.entry("api-key", ConfigValue.fromCredential()),
                        Map.entry("X-Token", ConfigValue.fromEnv("TOKEN")),
                        Map.entry("X-Title", ConfigValue.of("Rebound")),
                        Map.entry("X-Literal-Var", ConfigValue.of("${NOT_A_VARIABLE}")),
                        Map.entry("X-Literal-Key", ConfigValue.of("<key>")));
        assertThat(ExtrasText.toJson(parsed.values())).isEqualTo(JSON.readTree(stored));
    }

    @Test
    void aLineWithoutItsSeparatorIsRefusedWithItsNumberAndQueryUsesEquals() {
        assertThat(ExtrasText.HEADERS.parse("X-A: 1\n\nno colon here").error()).startsWith("line 3: write Name: value");
        assertThat(ExtrasText.QUERY.parse("api-version=2024-10-21").values())
                .containsExactly(Map.entry("api-version", ConfigValue.of("2024-10-21")));
    }
}
