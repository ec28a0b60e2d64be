package dev.rebound.transcript;

import java.util.Objects;

/**
 * A model of a configured provider, written {@code provider/modelId} as a selector.
 *
 * @param provider the provider key in settings
 * @param id the model id as the provider knows it (may itself contain slashes)
 */
public record ModelRef(String provider, String id) {
    public ModelRef {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(id, "id");
    }

    /** The {@code provider/modelId} form. */
    public String selector() {
        return provider + "/" + id;
    }

    /**
     * Parses {@code provider/modelId}; the first slash separates the two, so model ids may contain slashes.
     *
     * @throws IllegalArgumentException when the text is not of that form
     */
    public static ModelRef parse(String selector) {
        if (selector == null) {
            throw new IllegalArgumentException("a model selector is required (provider/modelId)");
        }
        int slash = selector.indexOf('/');
        if (slash <= 0 || slash == selector.length() - 1 || !selector.strip().equals(selector)) {
            throw new IllegalArgumentException(
                    "'" + selector + "' is not a model selector of the form provider/modelId");
        }
        return new ModelRef(selector.substring(0, slash), selector.substring(slash + 1));
    }

    @Override
    public String toString() {
        return selector();
    }

    /**
     * Written out, as {@link #hashCode}: a record's own are built from method handles on their first call, ~6 ms on
     * the first turn's path, where the fallback state compares models (docs/startup.md).
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof ModelRef that && provider.equals(that.provider) && id.equals(that.id);
    }

    @Override
    public int hashCode() {
        return 31 * provider.hashCode() + id.hashCode();
    }
}
