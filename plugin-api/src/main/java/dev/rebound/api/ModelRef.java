package dev.rebound.api;

import java.util.Objects;

/**
 * A model of a configured provider.
 *
 * @param provider the provider key in settings ({@code anthropic}, {@code local}...)
 * @param id the model id as the provider knows it (may itself contain slashes)
 */
public record ModelRef(String provider, String id) {
    /** Requires both parts. */
    public ModelRef {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(id, "id");
    }

    /** The {@code provider/id} form, as settings and logs write a model. */
    @Override
    public String toString() {
        return provider + "/" + id;
    }
}
