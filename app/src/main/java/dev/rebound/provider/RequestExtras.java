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
 * @param carriesKey whether a value is the provider's key ({@code {"credential": true}}): then the key goes there and
 *     nowhere else, the wire format's own key header is not sent
 */
public record RequestExtras(
        Map<String, String> headers, Map<String, String> query, List<String> secrets, boolean carriesKey) {
    /** The headers a wire format puts the key in; left out when an extra value carries it. */
    public static final List<String> KEY_HEADERS = List.of("Authorization", "x-api-key", "x-goog-api-key");

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
     * @param key the provider's key for this call, or null when it has none
     * @throws Unresolved when a value names an environment variable that is not set, or the key when there is none; the
     *     message says which
     */
    public static RequestExtras of(ProviderConfig provider, Map<String, String> environment, String key)
            throws Unresolved {
        List<String> secrets = new ArrayList<>(baseUrlSecrets(provider.baseUrl()));
        Map<String, String> headers = resolve(provider, provider.headers(), "headers", environment, key, secrets);
        Map<String, String> query = resolve(provider, provider.query(), "query", environment, key, secrets);
        boolean carriesKey = provider.headers().values().stream().anyMatch(ConfigValue::credential)
                || provider.query().values().stream().anyMatch(ConfigValue::credential);
        return new RequestExtras(headers, query, secrets, carriesKey);
    }

    /** Leaves out the wire format's key headers when an extra value carries the key, then sets the extra headers. */
    public void applyAfterKey(Request.Builder request) {
        if (carriesKey) {
            KEY_HEADERS.forEach(request::removeHeader);
        }
        apply(request);
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
            String key,
            List<String> secrets)
            throws Unresolved {
        Map<String, String> resolved = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigValue> entry : values.entrySet()) {
            ConfigValue value = entry.getValue();
            Optional<String> text = value.resolve(environment, key);
            if (text.isEmpty() && value.credential()) {
                throw new Unresolved("Provider '" + provider.key() + "' sends its key in " + member + "."
                        + entry.getKey() + " ({\"credential\": true}), but it has no key: add one for '"
                        + provider.key() + "' in credentials.json or the settings window");
            }
            if (text.isEmpty()) {
                throw new Unresolved("Provider '" + provider.key() + "' reads " + member + "." + entry.getKey()
                        + " from the environment variable " + value.env() + ", which is not set: set it before"
                        + " starting Rebound, or write the value in settings.json");
            }
            if (value.isSecretUnder(entry.getKey())) {
                addSecret(secrets, text.get());
            }
            if (member.equals("headers") && !ConfigValue.headerSafe(text.get())) {
                String from = value.credential()
                        ? "the key in credentials.json"
                        : value.env() != null
                                ? "the environment variable " + value.env()
                                : "the value in settings.json";
                throw new Unresolved("Provider '" + provider.key() + "' header " + entry.getKey()
                        + " holds a character that cannot go in an HTTP header (a line break or a non-ASCII "
                        + "character, often left by copying): check " + from);
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
