package dev.rebound.auth;

import java.util.List;
import java.util.Optional;

/** Chooses the credential a session uses for a provider. */
@FunctionalInterface
public interface CredentialSource {
    /** The credential to use for that provider key, or empty when it has none (servers that need no key). */
    Optional<Credential> credentialFor(String provider);

    /** Every credential configured, of every provider: the keys no text from a provider may show. */
    default List<Credential> allCredentials() {
        return List.of();
    }

    /** When every API key of the provider is blocked now: until when, and why. Empty when a key is usable. */
    default Optional<CredentialsBlocked> blocked(String provider) {
        return Optional.empty();
    }
}
