package dev.rebound.auth;

import java.util.Objects;

/**
 * One API key of a provider, known everywhere by its label. The key itself is a {@link Secret}.
 *
 * @param provider provider key in settings
 * @param label unique per provider; the only part that travels in events, logs and history
 * @param secret the key
 */
public record Credential(String provider, String label, Secret secret) {
    public Credential {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(secret, "secret");
    }

    @Override
    public String toString() {
        return "Credential[" + provider + "/" + label + "]";
    }
}
