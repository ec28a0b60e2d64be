package dev.rebound.settings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.files.FileProblem;
import dev.rebound.files.KeyPath;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads a provider's {@code headers} and {@code query} maps and its {@code store} flag, adding a problem with its key
 * path for each entry that is wrong (the entry is left out; the rest of the provider stays).
 */
final class ProviderExtrasReader {
    /** An HTTP header name: an RFC 9110 token. */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    /** An environment variable name, as {@code apiKeyEnv} takes it. */
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Headers Rebound or the HTTP client must set themselves. */
    private static final List<String> RESERVED =
            List.of("host", "content-length", "content-type", "transfer-encoding", "connection", "accept-encoding");

    private final List<FileProblem> problems;

    ProviderExtrasReader(List<FileProblem> problems) {
        this.problems = problems;
    }

    Map<String, ConfigValue> headers(JsonNode node, String path) {
        Map<String, ConfigValue> result = new LinkedHashMap<>();
        if (!object(node, path, "header names to values")) {
            return result;
        }
        TreeSet<String> seen = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String name = entry.getKey();
            String entryPath = KeyPath.child(path, name);
            if (!HEADER_NAME.matcher(name).matches()) {
                problems.add(FileProblem.error(entryPath, "is not a valid HTTP header name"));
            } else if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
                problems.add(FileProblem.error(entryPath, "is set by Rebound itself and cannot be replaced"));
            } else if (!seen.add(name)) {
                problems.add(FileProblem.error(entryPath, "repeats a header name (names are not case-sensitive)"));
            } else {
                ConfigValue value = value(entry.getValue(), entryPath, true);
                if (value != null) {
                    result.put(name, value);
                }
            }
        }
        return result;
    }

    Map<String, ConfigValue> query(JsonNode node, String path) {
        Map<String, ConfigValue> result = new LinkedHashMap<>();
        if (!object(node, path, "parameter names to values")) {
            return result;
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String entryPath = KeyPath.child(path, entry.getKey());
            if (entry.getKey().isBlank()) {
                problems.add(FileProblem.error(entryPath, "a query parameter needs a name"));
                continue;
            }
            ConfigValue value = value(entry.getValue(), entryPath, false);
            if (value != null) {
                result.put(entry.getKey(), value);
            }
        }
        return result;
    }

    boolean store(JsonNode node, String path, ProviderApi api, ProviderApi format) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return true;
        }
        boolean responses = api == ProviderApi.OPENAI_RESPONSES
                || (api == ProviderApi.SIMULATOR && format == ProviderApi.OPENAI_RESPONSES);
        if (api != null && !responses) {
            problems.add(FileProblem.warning(path, "is only used by openai-responses providers; it is ignored here"));
        }
        if (!node.isBoolean()) {
            problems.add(FileProblem.error(path, "must be true or false"));
            return true;
        }
        return node.booleanValue();
    }

    /** A simulator's {@code format}: one of the four wire formats; null when absent or wrong (then reported). */
    ProviderApi format(JsonNode node, String path, ProviderApi api) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (api != ProviderApi.SIMULATOR) {
            problems.add(FileProblem.warning(path, "is only used by simulator providers; it is ignored here"));
            return null;
        }
        ProviderApi format = node.isTextual() ? ProviderApi.fromValue(node.textValue()) : null;
        if (format == null || format == ProviderApi.SIMULATOR) {
            problems.add(FileProblem.error(
                    path, "must be one of openai-completions, openai-responses, anthropic-messages, google-gemini"));
            return null;
        }
        return format;
    }

    private boolean object(JsonNode node, String path, String what) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return false;
        }
        if (!node.isObject()) {
            problems.add(FileProblem.error(path, "must be an object of " + what));
            return false;
        }
        return true;
    }

    private ConfigValue value(JsonNode node, String path, boolean header) {
        if (node.isTextual()) {
            String text = node.textValue();
            if (header && !ConfigValue.headerSafe(text)) {
                problems.add(FileProblem.error(
                        path, "a header value must be printable ASCII (no line breaks, no accented letters)"));
                return null;
            }
            return ConfigValue.of(text);
        }
        if (node.isObject() && node.size() == 1 && node.has("env")) {
            JsonNode env = node.get("env");
            if (env.isTextual() && ENV_NAME.matcher(env.textValue()).matches()) {
                return ConfigValue.fromEnv(env.textValue());
            }
            problems.add(FileProblem.error(
                    KeyPath.child(path, "env"), "must name an environment variable (letters, digits and _)"));
            return null;
        }
        if (node.isObject() && node.size() == 1 && node.has("credential")) {
            if (node.get("credential").isBoolean() && node.get("credential").booleanValue()) {
                return ConfigValue.fromCredential();
            }
            problems.add(FileProblem.error(
                    KeyPath.child(path, "credential"), "must be true (the provider's key from credentials.json)"));
            return null;
        }
        problems.add(FileProblem.error(
                path,
                "must be a string, {\"env\": \"NAME\"} to read the value from an environment variable, or "
                        + "{\"credential\": true} for the provider's key from credentials.json"));
        return null;
    }
}
