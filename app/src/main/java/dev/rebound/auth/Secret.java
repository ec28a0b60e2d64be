package dev.rebound.auth;

import dev.rebound.settings.SettingsSecrets;

/**
 * An API key held in memory. It never prints itself: {@link #toString()} is a fixed mask, so a key cannot leak into a
 * log line or an error message by accident. Only a provider reads {@link #reveal()}, to put it in a request header.
 */
public final class Secret {
    private final String value;

    public Secret(String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("a secret must not be empty");
        }
        this.value = value;
    }

    /** The key itself; for the request header and for redaction only. */
    public String reveal() {
        return value;
    }

    /** The key masked for display: at most its last 4 characters shown. */
    public String masked() {
        return SettingsSecrets.mask(value);
    }

    /** Removes every occurrence of this key from a text (an error body echoing the key, say). */
    public String redactFrom(String text) {
        return text == null ? null : text.replace(value, "[redacted]");
    }

    @Override
    public String toString() {
        return "Secret[redacted]";
    }
}
