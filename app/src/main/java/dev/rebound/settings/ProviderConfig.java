package dev.rebound.settings;

import java.util.List;

/**
 * A configured provider.
 *
 * @param key its key under {@code providers} (the first part of a model selector)
 * @param api its wire protocol
 * @param baseUrl base URL of its API ({@code https://api.openai.com/v1}); may be null for the built-in simulator
 * @param models the models it offers
 */
public record ProviderConfig(String key, ProviderApi api, String baseUrl, List<ModelConfig> models) {
    public ProviderConfig {
        models = models == null ? List.of() : List.copyOf(models);
    }
}
