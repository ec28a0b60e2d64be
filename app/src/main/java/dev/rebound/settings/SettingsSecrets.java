package dev.rebound.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Iterator;
import java.util.Map;

/**
 * Secrets in a settings document shown to or taken from a client (RPC {@code get_settings} / {@code set_settings}):
 * secret values of providers' {@code headers} and {@code query} (see {@link ConfigValue#isSecretUnder}), a password in
 * a {@code baseUrl}'s user info, and secret-looking query parameters written into a {@code baseUrl}.
 *
 * <p>{@link #masked} replaces each with {@link #mask} of it ({@code ••••} and at most its last 4 characters). A value
 * named by an environment variable ({@code {"env": "NAME"}}) is not a secret itself and is shown as it is.
 * {@link #restored} undoes masking in a patch: a masked value sent back unchanged keeps the stored secret, so a client
 * can round-trip what it was given; any other value replaces it.
 */
public final class SettingsSecrets {
    private static final String DOTS = "••••";
    private static final int SHOWN = 4;
    private static final int SHOWN_FROM_LENGTH = 12;

    private SettingsSecrets() {}

    /** A secret as shown: {@code ••••} and its last 4 characters when it has 12 or more. */
    public static String mask(String secret) {
        int shown = secret.length() >= SHOWN_FROM_LENGTH ? SHOWN : 0;
        return DOTS + secret.substring(secret.length() - shown);
    }

    /** A copy of {@code settings} with every provider secret masked. */
    public static ObjectNode masked(ObjectNode settings) {
        ObjectNode copy = settings.deepCopy();
        forEachProvider(copy, (provider, stored) -> maskProvider(provider), null);
        return copy;
    }

    /** Masks the secrets of one provider entry, in place. */
    public static void maskProvider(ObjectNode provider) {
        maskMember(provider, "headers");
        maskMember(provider, "query");
        JsonNode url = provider.get("baseUrl");
        if (url != null && url.isTextual()) {
            provider.put("baseUrl", maskUrl(url.textValue()));
        }
    }

    /**
     * A copy of a merge patch in which every masked value that matches the mask of the stored secret is the stored
     * secret again.
     *
     * @param patch the client's merge patch
     * @param stored the settings document in effect, unmasked
     */
    public static JsonNode restored(JsonNode patch, ObjectNode stored) {
        if (patch == null || !patch.isObject()) {
            return patch;
        }
        ObjectNode copy = ((ObjectNode) patch).deepCopy();
        forEachProvider(
                copy,
                (provider, before) -> {
                    if (before != null) {
                        restoreProvider(provider, before);
                    }
                },
                stored);
        return copy;
    }

    /**
     * Puts the stored secrets back into one provider entry, in place, where it holds their masks unchanged.
     *
     * @param provider the entry as edited
     * @param stored the same provider's entry as stored, unmasked
     */
    public static void restoreProvider(ObjectNode provider, JsonNode stored) {
        if (stored == null || !stored.isObject()) {
            return;
        }
        restoreMember(provider, (ObjectNode) stored, "headers");
        restoreMember(provider, (ObjectNode) stored, "query");
        JsonNode url = provider.get("baseUrl");
        JsonNode storedUrl = stored.get("baseUrl");
        if (url != null
                && url.isTextual()
                && storedUrl != null
                && storedUrl.isTextual()
                && url.textValue().equals(maskUrl(storedUrl.textValue()))) {
            provider.put("baseUrl", storedUrl.textValue());
        }
    }

    private interface ProviderVisitor {
        void visit(ObjectNode provider, ObjectNode stored);
    }

    private static void forEachProvider(ObjectNode document, ProviderVisitor visitor, ObjectNode storedDocument) {
        JsonNode providers = document.get("providers");
        if (providers == null || !providers.isObject()) {
            return;
        }
        JsonNode storedProviders = storedDocument == null ? null : storedDocument.get("providers");
        for (Map.Entry<String, JsonNode> entry : providers.properties()) {
            if (entry.getValue().isObject()) {
                JsonNode before = storedProviders == null ? null : storedProviders.get(entry.getKey());
                visitor.visit(
                        (ObjectNode) entry.getValue(),
                        before != null && before.isObject() ? (ObjectNode) before : null);
            }
        }
    }

    private static void maskMember(ObjectNode provider, String member) {
        JsonNode values = provider.get(member);
        if (values == null || !values.isObject()) {
            return;
        }
        ObjectNode object = (ObjectNode) values;
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            JsonNode value = object.get(name);
            if (value.isTextual() && ConfigValue.of(value.textValue()).isSecretUnder(name)) {
                object.put(name, mask(value.textValue()));
            }
        }
    }

    private static void restoreMember(ObjectNode provider, ObjectNode stored, String member) {
        JsonNode values = provider.get(member);
        JsonNode before = stored.get(member);
        if (values == null || !values.isObject() || before == null || !before.isObject()) {
            return;
        }
        ObjectNode object = (ObjectNode) values;
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            JsonNode value = object.get(name);
            JsonNode old = before.get(name);
            if (value.isTextual()
                    && old != null
                    && old.isTextual()
                    && value.textValue().equals(mask(old.textValue()))) {
                object.put(name, old.textValue());
            }
        }
    }

    /** A base URL with the password of its user info and its secret-looking query values masked. */
    static String maskUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return url;
        }
        String result = url;
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && userInfo.contains(":")) {
            String password = userInfo.substring(userInfo.indexOf(':') + 1);
            if (!password.isEmpty()) {
                result = result.replace(
                        userInfo + "@", userInfo.substring(0, userInfo.indexOf(':') + 1) + mask(password) + "@");
            }
        }
        String query = uri.getRawQuery();
        if (query != null) {
            StringBuilder masked = new StringBuilder();
            for (String pair : query.split("&")) {
                int equals = pair.indexOf('=');
                String name = equals < 0 ? pair : pair.substring(0, equals);
                String value = equals < 0 ? "" : pair.substring(equals + 1);
                if (!masked.isEmpty()) {
                    masked.append('&');
                }
                boolean secret = !value.isEmpty() && ConfigValue.of(value).isSecretUnder(name);
                masked.append(secret ? name + "=" + mask(value) : pair);
            }
            result = result.replace("?" + query, "?" + masked);
        }
        return result;
    }
}
