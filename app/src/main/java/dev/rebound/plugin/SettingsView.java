package dev.rebound.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What plugins may read of {@code settings.json}: a deep, read-only copy as maps, lists, strings, numbers and booleans,
 * without secrets. Removed: every provider's {@code headers} (they carry tokens), and any member whose name contains
 * {@code key}, {@code token}, {@code secret}, {@code password} or {@code authorization}, case-insensitive, at any depth.
 */
final class SettingsView {
    private static final List<String> SECRET_WORDS = List.of("key", "token", "secret", "password", "authorization");

    private SettingsView() {
    }

    /** The whole settings tree without secrets; an absent or non-object document gives an empty map. */
    static Map<String, Object> withoutSecrets(JsonNode settings) {
        if (settings == null || !settings.isObject()) {
            return Map.of();
        }
        return object(settings, List.of());
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
        JsonNode enabled = settings == null ? null : settings.path("plugins").path(pluginId).get("enabled");
        return enabled != null && enabled.isBoolean() && !enabled.booleanValue();
    }

    /** Whether a member of that name is dropped from the plugins' view. */
    static boolean isSecretName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return SECRET_WORDS.stream().anyMatch(lower::contains);
    }

    /** An object's members; {@code path} names where it is, so that a provider's {@code headers} can be recognised. */
    private static Map<String, Object> object(JsonNode node, List<String> path) {
        boolean provider = path.size() == 2 && path.getFirst().equals("providers");
        Map<String, Object> result = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> member : node.properties()) {
            String name = member.getKey();
            if (isSecretName(name) || (provider && name.equals("headers"))) {
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
        return node.asText();
    }
}
