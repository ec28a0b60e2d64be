package dev.rebound.settings;

/**
 * A model a provider offers.
 *
 * @param id the id the provider knows it by
 * @param contextWindow its context window in tokens, or null when unknown
 */
public record ModelConfig(String id, Integer contextWindow) {
}
