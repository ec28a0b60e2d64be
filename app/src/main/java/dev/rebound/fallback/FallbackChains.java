package dev.rebound.fallback;

import dev.rebound.settings.Settings;
import dev.rebound.transcript.ModelRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Resolves the effective fallback chain of a model (§6 of the retry policy). Keys are tried most specific first: the
 * exact selector ({@code anthropic/claude-sonnet-4-5}), the provider wildcard ({@code anthropic/*}), the session's role,
 * then {@code default}. The chain is {@code [primary, …configured]} without duplicates; malformed selectors and models
 * that are not configured are skipped (settings validation has reported them).
 */
public final class FallbackChains {
    /** The role every chat session has, and the key every role without a chain inherits. */
    public static final String DEFAULT = "default";

    private FallbackChains() {}

    /**
     * The chain for a primary model, if a key matches.
     *
     * @param role the session's role ({@code default} for chats, {@code title} for titles...)
     */
    public static Optional<Resolution> resolve(Settings settings, ModelRef primary, String role) {
        Map<String, List<String>> chains = settings.retry().fallbackChains();
        for (String key : List.of(primary.selector(), primary.provider() + "/*", role, DEFAULT)) {
            List<String> configured = chains.get(key);
            if (configured != null) {
                Set<ModelRef> chain = new LinkedHashSet<>();
                chain.add(primary);
                for (String selector : configured) {
                    parse(selector)
                            .filter(ref -> settings.findModel(ref).isPresent())
                            .ifPresent(chain::add);
                }
                return Optional.of(new Resolution(key, new ArrayList<>(chain)));
            }
        }
        return Optional.empty();
    }

    private static Optional<ModelRef> parse(String selector) {
        try {
            return Optional.of(ModelRef.parse(selector));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * A resolved chain.
     *
     * @param key the chain key that matched (reported as {@code role} in fallback events)
     * @param models the primary first, then the configured fallbacks
     */
    public record Resolution(String key, List<ModelRef> models) {
        public Resolution {
            models = List.copyOf(models);
        }
    }
}
