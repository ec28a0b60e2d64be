package dev.rebound.ui.settings.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.settings.ConfigValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A provider's extra headers or query parameters as the Providers tab edits them: one entry per line, {@code Name:
 * value} for headers and {@code name=value} for query parameters, a value written {@code ${VARIABLE}} read from that
 * environment variable (settings.json's {@code {"env": "VARIABLE"}}). Blank lines are ignored.
 */
final class ExtrasText {
    /** How the provider's own key is written. */
    static final String KEY = "<key>";

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private final char separator;

    private ExtrasText(char separator) {
        this.separator = separator;
    }

    /** Headers: {@code Name: value}. */
    static final ExtrasText HEADERS = new ExtrasText(':');
    /** Query parameters: {@code name=value}. */
    static final ExtrasText QUERY = new ExtrasText('=');

    /**
     * The lines parsed.
     *
     * @param values names to values, in order; empty when {@link #error} is set
     * @param error why a line cannot be read, for a person; empty when all can
     */
    record Parsed(Map<String, ConfigValue> values, String error) {}

    /** The text of a settings member ({@code headers} or {@code query} of a provider entry), or "" when absent. */
    String format(JsonNode member) {
        if (member == null || !member.isObject()) {
            return "";
        }
        List<String> lines = new ArrayList<>();
        member.properties().forEach(entry -> {
            JsonNode value = entry.getValue();
            String text;
            if (value.isObject() && value.has("env")) {
                text = "${" + value.path("env").asText() + "}";
            } else if (value.isObject() && value.has("credential")) {
                text = KEY;
            } else {
                String literal = value.asText();
                text = literal.startsWith("${") ? "$" + literal : literal.equals(KEY) ? "<" + literal : literal;
            }
            lines.add(entry.getKey() + (separator == ':' ? ": " : "=") + text);
        });
        return String.join("\n", lines);
    }

    /** Reads the text. */
    Parsed parse(String text) {
        Map<String, ConfigValue> values = new LinkedHashMap<>();
        String[] lines = text == null ? new String[0] : text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            int at = line.indexOf(separator);
            if (at <= 0) {
                return new Parsed(
                        Map.of(),
                        "line " + (i + 1) + ": write " + (separator == ':' ? "Name: value" : "name=value")
                                + " (${VARIABLE} to read an environment variable)");
            }
            String name = line.substring(0, at).strip();
            String value = line.substring(at + 1).strip();
            Matcher variable = VARIABLE.matcher(value);
            if (variable.matches()) {
                values.put(name, ConfigValue.fromEnv(variable.group(1)));
            } else if (value.equals(KEY)) {
                values.put(name, ConfigValue.fromCredential());
            } else {
                boolean escaped = value.startsWith("$${") || value.equals("<" + KEY);
                values.put(name, ConfigValue.of(escaped ? value.substring(1) : value));
            }
        }
        return new Parsed(values, "");
    }

    /** The settings member for parsed values: a string or {@code {"env": NAME}} each. */
    static ObjectNode toJson(Map<String, ConfigValue> values) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        values.forEach((name, value) -> {
            if (value.credential()) {
                out.putObject(name).put("credential", true);
            } else if (value.env() != null) {
                out.putObject(name).put("env", value.env());
            } else {
                out.put(name, value.literal());
            }
        });
        return out;
    }
}
