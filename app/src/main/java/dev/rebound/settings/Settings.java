package dev.rebound.settings;

import dev.rebound.transcript.ModelRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The effective, validated settings: typed groups, immutable. Unknown keys of the file are not here; the store keeps
 * them in the raw document so that a save never loses them.
 *
 * @param model the default model, or null when none is set
 * @param modelRoles role name ({@code title}...) to model selector
 * @param providers provider key to provider, in file order
 * @param retry the retry group
 * @param timeouts the timeouts group
 * @param limits the limits group: how much a reply may hold
 * @param systemPrompt the instructions sent with every chat that has none of its own; empty for none
 */
public record Settings(
        ModelRef model,
        Map<String, ModelRef> modelRoles,
        Map<String, ProviderConfig> providers,
        RetrySettings retry,
        TimeoutSettings timeouts,
        LimitSettings limits,
        String systemPrompt) {

    public static final Settings DEFAULTS = new Settings(
            null, Map.of(), Map.of(), RetrySettings.DEFAULTS, TimeoutSettings.DEFAULTS, LimitSettings.DEFAULTS, "");

    /** Settings with no default system prompt. */
    public Settings(
            ModelRef model,
            Map<String, ModelRef> modelRoles,
            Map<String, ProviderConfig> providers,
            RetrySettings retry,
            TimeoutSettings timeouts,
            LimitSettings limits) {
        this(model, modelRoles, providers, retry, timeouts, limits, "");
    }

    /** Settings with the default limits. */
    public Settings(
            ModelRef model,
            Map<String, ModelRef> modelRoles,
            Map<String, ProviderConfig> providers,
            RetrySettings retry,
            TimeoutSettings timeouts) {
        this(model, modelRoles, providers, retry, timeouts, LimitSettings.DEFAULTS);
    }

    public Settings {
        modelRoles = modelRoles == null ? Map.of() : Map.copyOf(modelRoles);
        providers =
                providers == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(providers));
        retry = retry == null ? RetrySettings.DEFAULTS : retry;
        timeouts = timeouts == null ? TimeoutSettings.DEFAULTS : timeouts;
        limits = limits == null ? LimitSettings.DEFAULTS : limits;
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
    }

    /** The provider of that key, if configured. */
    public Optional<ProviderConfig> provider(String key) {
        return Optional.ofNullable(providers.get(key));
    }

    /** The configured model of that selector, if its provider lists it. */
    public Optional<ModelConfig> findModel(ModelRef ref) {
        return provider(ref.provider())
                .flatMap(p ->
                        p.models().stream().filter(m -> m.id().equals(ref.id())).findFirst());
    }

    /** Every configured model, providers and models in file order. */
    public List<ModelRef> allModels() {
        return providers.values().stream()
                .flatMap(p -> p.models().stream().map(m -> new ModelRef(p.key(), m.id())))
                .toList();
    }

    /** A copy with another retry group. */
    public Settings withRetry(RetrySettings newRetry) {
        return new Settings(model, modelRoles, providers, newRetry, timeouts, limits, systemPrompt);
    }
}
