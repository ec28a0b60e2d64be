package dev.rebound.settings;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A value of a provider's extra {@code headers} or {@code query} map: written out ({@code "HTTP-Referer":
 * "https://example.org"}), named by an environment variable ({@code "api-key": {"env": "AZURE_OPENAI_KEY"}}), or the
 * provider's own key from credentials.json ({@code "api-key": {"credential": true}}, for servers such as Azure OpenAI
 * that want the key in a header of their own; the key then goes nowhere else).
 *
 * <p>A value named by an environment variable or taken from the credentials is a secret, and so is a written value
 * whose name says it is one ({@code api-key}, {@code Authorization}, {@code Cookie}, {@code x-goog-api-key}, {@code sig},
 * {@code code}, anything with key, token, secret, password, auth, signature, credential, cookie or session in it):
 * secrets are masked wherever settings are shown or returned and removed from every text a provider sends back.
 *
 * @param literal the value as written, or null
 * @param env the name of the environment variable holding it, or null
 * @param credential whether the value is the provider's key from credentials.json
 */
public record ConfigValue(String literal, String env, boolean credential) {
    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i).*(key|token|secret|password|passwd|auth|signature|credential|cookie|session).*|sig|code");

    public ConfigValue {
        int forms = (literal != null ? 1 : 0) + (env != null ? 1 : 0) + (credential ? 1 : 0);
        if (forms != 1) {
            throw new IllegalArgumentException("exactly one of literal, env and credential");
        }
    }

    /** A value written out. */
    public static ConfigValue of(String literal) {
        return new ConfigValue(Objects.requireNonNull(literal, "literal"), null, false);
    }

    /** A value held by an environment variable. */
    public static ConfigValue fromEnv(String name) {
        return new ConfigValue(null, Objects.requireNonNull(name, "name"), false);
    }

    /** The provider's own key, from credentials.json. */
    public static ConfigValue fromCredential() {
        return new ConfigValue(null, null, true);
    }

    /**
     * The value: as written, read from {@code environment}, or {@code key}; empty when the variable is unset or there
     * is no key.
     */
    public Optional<String> resolve(Map<String, String> environment, String key) {
        if (literal != null) {
            return Optional.of(literal);
        }
        String value = credential ? key : environment.get(env);
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    /** Whether a value can go in an HTTP header: printable ASCII and tabs only (what OkHttp accepts). */
    public static boolean headerSafe(String value) {
        return value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c < 0x7f));
    }

    /** Whether the value under {@code name} is a secret (see the type's description). */
    public boolean isSecretUnder(String name) {
        return env != null
                || credential
                || SECRET_NAME.matcher(name.toLowerCase(Locale.ROOT)).matches();
    }
}
