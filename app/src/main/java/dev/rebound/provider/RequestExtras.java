package dev.rebound.provider;

import dev.rebound.settings.ConfigValue;
import dev.rebound.settings.ProviderConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * A provider's extra {@code headers} and {@code query} values with environment variables read, and the secrets among
 * them (and in the base URL: a {@code user:password@} part, a secret-looking query parameter) that every text from the
 * provider must be scrubbed of.
 *
 * @param headers header names to values, in the order written
 * @param query query parameter names to values, in the order written
 * @param secrets the values no text may show
 */
public record RequestExtras(Map<String, String> headers, Map<String, String> query, List<String> secrets) {
    /** Secrets shorter than this are not removed from texts: they would mangle ordinary words and numbers. */
    static final int MIN_SECRET_LENGTH = 6;

    public RequestExtras {
        headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        query = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(query));
        secrets = List.copyOf(secrets);
    }

    /** Why the extras of a provider cannot be resolved: an environment variable they name is not set. */
    public static final class Unresolved extends Exception {
        Unresolved(String message) {
            super(message);
        }
    }

    /**
     * Resolves the extras of a provider.
     *
     * @throws Unresolved when a value names an environment variable that is not set; the message says which
     */
    public static RequestExtras of(ProviderConfig provider, Map<String, String> environment) throws Unresolved {
        List<String> secrets = new ArrayList<>(baseUrlSecrets(provider.baseUrl()));
        Map<String, String> headers = resolve(provider, provider.headers(), "headers", environment, secrets);
        Map<String, String> query = resolve(provider, provider.query(), "query", environment, secrets);
        return new RequestExtras(headers, query, secrets);
    }

    /** The URL with the extra query parameters set (replacing any of the same name). */
    public HttpUrl apply(HttpUrl url) {
        if (query.isEmpty()) {
            return url;
        }
        HttpUrl.Builder builder = url.newBuilder();
        query.forEach(builder::setQueryParameter);
        return builder.build();
    }

    /** Sets the extra headers on a request (replacing any of the same name). */
    public void apply(Request.Builder request) {
        headers.forEach(request::header);
    }

    private static Map<String, String> resolve(
            ProviderConfig provider,
            Map<String, ConfigValue> values,
            String member,
            Map<String, String> environment,
            List<String> secrets)
            throws Unresolved {
        Map<String, String> resolved = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigValue> entry : values.entrySet()) {
            ConfigValue value = entry.getValue();
            Optional<String> text = value.resolve(environment);
            if (text.isEmpty()) {
                throw new Unresolved("Provider '" + provider.key() + "' reads " + member + "." + entry.getKey()
                        + " from the environment variable " + value.env() + ", which is not set: set it before"
                        + " starting Rebound, or write the value in settings.json");
            }
            if (value.isSecretUnder(entry.getKey())) {
                addSecret(secrets, text.get());
            }
            resolved.put(entry.getKey(), text.get());
        }
        return resolved;
    }

    /** A password in the base URL's user info, and the values of its secret-looking query parameters. */
    static List<String> baseUrlSecrets(String baseUrl) {
        HttpUrl url = baseUrl == null ? null : HttpUrl.parse(baseUrl.strip());
        if (url == null) {
            return List.of();
        }
        List<String> secrets = new ArrayList<>();
        addSecret(secrets, url.password());
        addSecret(secrets, url.encodedPassword());
        for (String name : url.queryParameterNames()) {
            if (ConfigValue.of("").isSecretUnder(name)) {
                url.queryParameterValues(name).forEach(v -> addSecret(secrets, v));
            }
        }
        return secrets;
    }

    private static void addSecret(List<String> secrets, String value) {
        if (value != null && value.length() >= MIN_SECRET_LENGTH && !secrets.contains(value)) {
            secrets.add(value);
        }
    }
}
