package dev.rebound.auth;

import java.util.Objects;
import java.util.regex.Pattern;

/** Where a credential's key comes from: written in credentials.json, or read from an environment variable. */
public sealed interface ApiKeySource {

    /** The key itself ({@code apiKey}). */
    record Literal(Secret key) implements ApiKeySource {
        public Literal {
            Objects.requireNonNull(key, "key");
        }
    }

    /**
     * The name of the environment variable holding the key ({@code apiKeyEnv}): letters, digits and {@code _}, not
     * starting with a digit. Keeping to that form means a key pasted here by mistake (they contain {@code -}) is refused
     * instead of being shown as a variable name.
     */
    record Environment(String variable) implements ApiKeySource {
        private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

        public Environment {
            if (!isVariableName(variable)) {
                throw new IllegalArgumentException(
                        "an environment variable name has letters, digits and _ only (not the key itself)");
            }
        }

        /** Whether a text has the form of an environment variable name. */
        public static boolean isVariableName(String text) {
            return text != null && NAME.matcher(text).matches();
        }
    }
}
