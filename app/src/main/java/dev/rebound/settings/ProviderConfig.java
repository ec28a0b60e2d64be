package dev.rebound.settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A configured provider.
 *
 * @param key its key under {@code providers} (the first part of a model selector)
 * @param api its wire protocol
 * @param baseUrl base URL of its API ({@code https://api.openai.com/v1}); may be null for the built-in simulator
 * @param models the models it offers
 * @param headers extra headers sent with every request (Azure's {@code api-key}, OpenRouter's attribution headers), in
 *     the order written; they replace a header of the same name Rebound would send
 * @param query extra query parameters added to every request's URL (Azure's {@code api-version})
 * @param store for {@code openai-responses}: whether the server keeps responses, so that a turn sends only what is new
 *     and names the previous response ({@code previous_response_id}); false sends the whole conversation every time
 * @param format for {@code simulator}: the wire format the simulator is spoken to in ({@code anthropic-messages}...),
 *     so that each provider's format and failures can be tried offline; null for Chat Completions
 */
public record ProviderConfig(
        String key,
        ProviderApi api,
        String baseUrl,
        List<ModelConfig> models,
        Map<String, ConfigValue> headers,
        Map<String, ConfigValue> query,
        boolean store,
        ProviderApi format) {
    public ProviderConfig {
        models = models == null ? List.of() : List.copyOf(models);
        headers = ordered(headers);
        query = ordered(query);
    }

    /** A provider with no extra headers or query parameters, storing responses where the api can. */
    public ProviderConfig(String key, ProviderApi api, String baseUrl, List<ModelConfig> models) {
        this(key, api, baseUrl, models, Map.of(), Map.of(), true, null);
    }

    /** A provider that is not the simulator spoken to in another format. */
    public ProviderConfig(
            String key,
            ProviderApi api,
            String baseUrl,
            List<ModelConfig> models,
            Map<String, ConfigValue> headers,
            Map<String, ConfigValue> query,
            boolean store) {
        this(key, api, baseUrl, models, headers, query, store, null);
    }

    /** This provider at another base URL. */
    public ProviderConfig withBaseUrl(String replaced) {
        return new ProviderConfig(key, api, replaced, models, headers, query, store, format);
    }

    /** This provider with other extra headers. */
    public ProviderConfig withHeaders(Map<String, ConfigValue> replaced) {
        return new ProviderConfig(key, api, baseUrl, models, replaced, query, store, format);
    }

    /** This provider with other extra query parameters. */
    public ProviderConfig withQuery(Map<String, ConfigValue> replaced) {
        return new ProviderConfig(key, api, baseUrl, models, headers, replaced, store, format);
    }

    /** This provider with {@code store} set. */
    public ProviderConfig withStore(boolean replaced) {
        return new ProviderConfig(key, api, baseUrl, models, headers, query, replaced, format);
    }

    private static Map<String, ConfigValue> ordered(Map<String, ConfigValue> values) {
        if (values == null || values.isEmpty()) {
            return Map.of();
        }
        Map<String, ConfigValue> copy = new LinkedHashMap<>();
        values.forEach((name, value) -> copy.put(Objects.requireNonNull(name), Objects.requireNonNull(value)));
        return java.util.Collections.unmodifiableMap(copy);
    }
}
