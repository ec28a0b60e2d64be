package dev.rebound.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a plugin may read of {@code settings.json}: a deep, read-only copy as maps, lists, strings, numbers and
 * booleans, without secrets and without other plugins' sections. Removed, at any depth: every provider's
 * {@code headers} and {@code query} (they carry tokens, Azure's {@code sig} and {@code code}); any member one of whose name's words is in {@link #SECRET_WORDS}, the words
 * being split at camelCase humps, {@code _}, {@code -}, {@code .} and spaces, case-insensitive ({@code apiToken},
 * {@code api_key}, {@code x-api-key} go; {@code maxTokens}, {@code hotkeys}, {@code tokenizer} stay); the user name,
 * password, query and fragment of every URL-looking string value ({@code https://user:pass@proxy/v1?key=k} becomes
 * {@code https://proxy/v1}); and every {@code plugins → <id>} section but the plugin's own.
 */
final class SettingsView {
    /** The words that make a member a secret. */
    static final Set<String> SECRET_WORDS = Set.of(
            "key",
            "keys",
            "apikey",
            "token",
            "secret",
            "secrets",
            "password",
            "passwords",
            "passphrase",
            "pwd",
            "passwd",
            "authorization",
            "auth",
            "oauth",
            "bearer",
            "cookie",
            "cookies",
            "credential",
            "credentials",
            "private",
            "privatekey");
    /** Where a name splits into words: camelCase humps, acronym ends ({@code APIKey}) and separators. */
    private static final Pattern WORD_BREAK =
            Pattern.compile("(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[^A-Za-z0-9]+");
    /** A URL: scheme, optional user info, the rest up to an optional query and fragment. */
    private static final Pattern URL =
            Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)(?:[^/?#]*@)?([^?#]*)(?:\\?[^#]*)?(?:#.*)?", Pattern.DOTALL);

    private SettingsView() {}

    /**
     * The settings tree a plugin sees: without secrets, and with only its own {@code plugins → <id>} section; an
     * absent or non-object document gives an empty map.
     */
    static Map<String, Object> withoutSecrets(JsonNode settings, String pluginId) {
        if (settings == null || !settings.isObject()) {
            return Map.of();
        }
        Map<String, Object> view = new LinkedHashMap<>(object(settings, List.of()));
        if (view.get("plugins") instanceof Map<?, ?> plugins) {
            Map<String, Object> own = new LinkedHashMap<>();
            if (plugins.containsKey(pluginId)) {
                own.put(pluginId, plugins.get(pluginId));
            }
            view.put("plugins", Collections.unmodifiableMap(own));
        }
        return Collections.unmodifiableMap(view);
    }

    /**
     * A plugin's own section, {@code plugins → <id>}, without secrets and without the host's {@code enabled} switch;
     * empty when there is none.
     */
    static Map<String, Object> pluginSection(JsonNode settings, String pluginId) {
        JsonNode section = settings == null ? null : settings.path("plugins").get(pluginId);
        if (section == null || !section.isObject()) {
            return Map.of();
        }
        Map<String, Object> copy = new LinkedHashMap<>(object(section, List.of("plugins", pluginId)));
        copy.remove("enabled");
        return Collections.unmodifiableMap(copy);
    }

    /** Whether the plugin is switched off in settings ({@code plugins → <id> → enabled: false}). */
    static boolean disabled(JsonNode settings, String pluginId) {
        return Boolean.FALSE.equals(enabledFlag(settings, pluginId));
    }

    /** Whether settings say {@code enabled: true} for the plugin (an opt-in plugin loads only then). */
    static boolean switchedOn(JsonNode settings, String pluginId) {
        return Boolean.TRUE.equals(enabledFlag(settings, pluginId));
    }

    /** {@code plugins → <id> → enabled} when it is a boolean; null when absent or anything else. */
    private static Boolean enabledFlag(JsonNode settings, String pluginId) {
        JsonNode enabled = settings == null
                ? null
                : settings.path("plugins").path(pluginId).get("enabled");
        return enabled != null && enabled.isBoolean() ? enabled.booleanValue() : null;
    }

    /** Whether a member of that name is dropped from the plugins' view. */
    static boolean isSecretName(String name) {
        return WORD_BREAK
                .splitAsStream(name)
                .map(word -> word.toLowerCase(Locale.ROOT))
                .anyMatch(SECRET_WORDS::contains);
    }

    /** A string value as plugins see it: a URL loses its user info, query and fragment; anything else is kept. */
    static String withoutCredentials(String value) {
        Matcher url = URL.matcher(value);
        return url.matches() ? url.group(1) + url.group(2) : value;
    }

    /** An object's members; {@code path} names where it is, so that a provider's {@code headers} can be recognised. */
    private static Map<String, Object> object(JsonNode node, List<String> path) {
        boolean provider = path.size() == 2 && path.getFirst().equals("providers");
        Map<String, Object> result = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> member : node.properties()) {
            String name = member.getKey();
            if (isSecretName(name) || (provider && (name.equals("headers") || name.equals("query")))) {
                continue;
            }
            List<String> childPath = new ArrayList<>(path);
            childPath.add(name);
            result.put(name, value(member.getValue(), childPath));
        }
        return Collections.unmodifiableMap(result);
    }

    private static Object value(JsonNode node, List<String> path) {
        if (node.isObject()) {
            return object(node, path);
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            node.forEach(item -> list.add(value(item, List.of())));
            return Collections.unmodifiableList(list);
        }
        if (node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
        }
        if (node.isNumber()) {
            return node.decimalValue();
        }
        return withoutCredentials(node.asText());
    }
}
