package dev.rebound.settings;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A value of a provider's extra {@code headers} or {@code query} map: written out ({@code "HTTP-Referer":
 * "https://example.org"}) or named by an environment variable ({@code "api-key": {"env": "AZURE_OPENAI_KEY"}}).
 *
 * <p>A value named by an environment variable is a secret, and so is a written value whose name says it is one
 * ({@code api-key}, {@code Authorization}, {@code Cookie}, {@code x-goog-api-key}, {@code sig}, {@code code}, anything
 * with key, token, secret, password, auth, signature, credential, cookie or session in it): secrets are masked wherever settings are shown or returned and removed from every text a
 * provider sends back.
 *
 * @param literal the value as written, or null when an environment variable holds it
 * @param env the name of the environment variable holding it, or null
 */
public record ConfigValue(String literal, String env) {
    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i).*(key|token|secret|password|passwd|auth|signature|credential|cookie|session).*|sig|code");

    public ConfigValue {
        if ((literal == null) == (env == null)) {
            throw new IllegalArgumentException("exactly one of literal and env");
        }
    }

    /** A value written out. */
    public static ConfigValue of(String literal) {
        return new ConfigValue(Objects.requireNonNull(literal, "literal"), null);
    }

    /** A value held by an environment variable. */
    public static ConfigValue fromEnv(String name) {
        return new ConfigValue(null, Objects.requireNonNull(name, "name"));
    }

    /** The value, read from {@code environment} when an environment variable holds it; empty when that is unset. */
    public Optional<String> resolve(Map<String, String> environment) {
        if (literal != null) {
            return Optional.of(literal);
        }
        String value = environment.get(env);
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    /** Whether the value under {@code name} is a secret (see the type's description). */
    public boolean isSecretUnder(String name) {
        return env != null || SECRET_NAME.matcher(name.toLowerCase(Locale.ROOT)).matches();
    }
}
