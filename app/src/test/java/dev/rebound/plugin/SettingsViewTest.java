package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsViewTest {
    private static final JsonNode SETTINGS = read("""
            { "model": "openai/gpt",
              "providers": {
                "openai": { "api": "openai-completions", "baseUrl": "https://x/v1", "apiKey": "sk-1",
                            "headers": { "X-Org": "org-secret-ish" }, "models": [ { "id": "gpt", "contextWindow": 8 } ] },
                "custom": { "accessToken": "t", "Authorization": "Bearer b", "db_password": "p", "clientSecret": "s",
                            "keyFile": "/k", "timeoutMs": 5 } },
              "retry": { "enabled": true, "baseDelayMs": 250 },
              "plugins": { "metrics": { "enabled": true, "port": 9464, "apiToken": "t", "labels": ["a", "b"] } },
              "headers": "a top-level headers member is not a provider's" }
            """);

    private static JsonNode read(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theViewKeepsEverythingButSecretsAndProviderHeaders() {
        Map<String, Object> view = SettingsView.withoutSecrets(SETTINGS, "metrics");

        assertThat(view).containsEntry("model", "openai/gpt").containsKey("headers");
        Map<String, Object> providers = map(view.get("providers"));
        assertThat(map(providers.get("openai"))).containsOnlyKeys("api", "baseUrl", "models");
        assertThat(map(providers.get("custom"))).containsExactly(Map.entry("timeoutMs", 5L));
        assertThat(map(providers.get("openai")).get("models"))
                .isEqualTo(List.of(Map.of("id", "gpt", "contextWindow", 8L)));
        assertThat(view.toString()).doesNotContain("sk-1", "org-secret-ish", "Bearer", "\"p\"");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @Test
    void theViewIsReadOnlyAllTheWayDown() {
        Map<String, Object> view = SettingsView.withoutSecrets(SETTINGS, "metrics");
        Map<String, Object> retry = map(view.get("retry"));
        assertThatThrownBy(() -> view.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> retry.put("enabled", false)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aPluginSectionLeavesOutTheHostsSwitchAndSecrets() {
        assertThat(SettingsView.pluginSection(SETTINGS, "metrics"))
                .containsExactly(Map.entry("port", 9464L), Map.entry("labels", List.of("a", "b")));
        assertThat(SettingsView.pluginSection(SETTINGS, "other")).isEmpty();
        assertThat(SettingsView.pluginSection(null, "metrics")).isEmpty();
    }

    @Test
    void onlyAnExplicitFalseDisablesAPlugin() {
        JsonNode settings = read("""
                { "plugins": { "off": { "enabled": false }, "on": { "enabled": true }, "odd": { "enabled": "no" },
                               "bare": {} } }""");
        assertThat(SettingsView.disabled(settings, "off")).isTrue();
        assertThat(SettingsView.disabled(settings, "on")).isFalse();
        assertThat(SettingsView.disabled(settings, "odd")).isFalse();
        assertThat(SettingsView.disabled(settings, "bare")).isFalse();
        assertThat(SettingsView.disabled(settings, "absent")).isFalse();
    }

    @Test
    void secretNamesAreMatchedOnWholeWordsOfTheName() {
        assertThat(List.of(
                        "apiToken",
                        "api_key",
                        "x-api-key",
                        "accessToken",
                        "APIKey",
                        "apikey",
                        "authHeader",
                        "Bearer",
                        "session-cookie",
                        "credentials",
                        "passphrase",
                        "db.pwd",
                        "privateKey",
                        "clientSecret"))
                .allMatch(SettingsView::isSecretName);
        assertThat(List.of("maxTokens", "hotkeys", "tokenizer", "keyboardLayout", "monkey", "author", "timeoutMs"))
                .noneMatch(SettingsView::isSecretName);
    }

    @Test
    void urlValuesLoseTheirUserInfoQueryAndFragment() {
        JsonNode settings = read("""
                { "proxy": "https://user:p@ss@proxy.example:8080/v1?key=sk-9#token=t",
                  "mirrors": ["http://bob:hunter2@mirror/x", "plain text ?key=1"],
                  "baseUrl": "https://api.example/v1" }""");

        Map<String, Object> view = SettingsView.withoutSecrets(settings, "any");

        assertThat(view)
                .containsEntry("proxy", "https://proxy.example:8080/v1")
                .containsEntry("mirrors", List.of("http://mirror/x", "plain text ?key=1"))
                .containsEntry("baseUrl", "https://api.example/v1");
    }

    @Test
    void aPluginSeesOnlyItsOwnSectionOfPlugins() {
        JsonNode settings = read("""
                { "plugins": { "mine": { "port": 1 }, "theirs": { "webhook": "https://hooks/x" } } }""");

        assertThat(SettingsView.withoutSecrets(settings, "mine"))
                .isEqualTo(Map.of("plugins", Map.of("mine", Map.of("port", 1L))));
        assertThat(SettingsView.withoutSecrets(settings, "nobody")).isEqualTo(Map.of("plugins", Map.of()));
    }
}
