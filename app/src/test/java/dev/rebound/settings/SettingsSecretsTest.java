package dev.rebound.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** Secrets of provider entries masked for clients, and a masked value sent back keeping the stored secret. */
class SettingsSecretsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STORED = """
            { "providers": {
                "azure": { "api": "openai-completions",
                           "baseUrl": "https://svc:hunter2-password@contoso.example/openai?code=fn-key-0123456789&region=eu",
                           "headers": { "api-key": "az-0123456789abcdef", "X-Api-Key": "short1",
                                        "Authorization": { "env": "AZURE_TOKEN" }, "X-Title": "Rebound" },
                           "query": { "api-version": "2024-10-21", "sig": "sv-signature-abcdef" } } } }
            """;

    private static ObjectNode stored() throws Exception {
        return (ObjectNode) JSON.readTree(STORED);
    }

    @Test
    void secretHeaderQueryAndUrlValuesAreMaskedAndTheRestIsShownAsItIs() throws Exception {
        JsonNode azure = SettingsSecrets.masked(stored()).path("providers").path("azure");

        assertThat(azure.path("headers").path("api-key").asText()).isEqualTo("••••cdef");
        assertThat(azure.path("headers").path("X-Api-Key").asText()).isEqualTo("••••");
        assertThat(azure.path("headers").path("Authorization").toString()).isEqualTo("{\"env\":\"AZURE_TOKEN\"}");
        assertThat(azure.path("headers").path("X-Title").asText()).isEqualTo("Rebound");
        assertThat(azure.path("query").path("api-version").asText()).isEqualTo("2024-10-21");
        assertThat(azure.path("query").path("sig").asText()).isEqualTo("••••cdef");
        assertThat(azure.path("baseUrl").asText())
                .isEqualTo("https://svc:••••word@contoso.example/openai?code=••••6789&region=eu")
                .doesNotContain("hunter2")
                .doesNotContain("fn-key");
        assertThat(SettingsSecrets.masked(stored()).toString())
                .doesNotContain("az-0123456789abcdef")
                .doesNotContain("short1")
                .doesNotContain("sv-signature");
    }

    @Test
    void whatAClientWasGivenRoundTripsToTheStoredSecretsAndANewValueReplacesThem() throws Exception {
        ObjectNode shown = SettingsSecrets.masked(stored());
        ObjectNode patch = JSON.createObjectNode();
        patch.set("providers", shown.get("providers").deepCopy());
        ((ObjectNode) patch.at("/providers/azure/headers")).put("X-Title", "Rebound 2");
        ((ObjectNode) patch.at("/providers/azure/query")).put("sig", "new-signature-999999");

        JsonNode restored = SettingsSecrets.restored(patch, stored());

        JsonNode azure = restored.path("providers").path("azure");
        assertThat(azure.path("headers").path("api-key").asText()).isEqualTo("az-0123456789abcdef");
        assertThat(azure.path("headers").path("X-Api-Key").asText()).isEqualTo("short1");
        assertThat(azure.path("headers").path("X-Title").asText()).isEqualTo("Rebound 2");
        assertThat(azure.path("query").path("sig").asText()).isEqualTo("new-signature-999999");
        assertThat(azure.path("baseUrl").asText())
                .isEqualTo(stored().at("/providers/azure/baseUrl").asText());
    }
}
