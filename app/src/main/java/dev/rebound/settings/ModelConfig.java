package dev.rebound.settings;

/**
 * A model a provider offers.
 *
 * @param id the id the provider knows it by
 * @param contextWindow its context window in tokens, or null when unknown
 * @param name what to call it where a model name shows ({@code "Rebound Simulator (offline)"}), or null to show the
 *     selector
 */
public record ModelConfig(String id, Integer contextWindow, String name) {

    /** A model with no display name. */
    public ModelConfig(String id, Integer contextWindow) {
        this(id, contextWindow, null);
    }
}
