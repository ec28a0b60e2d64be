package dev.rebound.settings;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.transcript.ModelRef;
import java.util.List;
import java.util.Map;

/** Writes typed {@link Settings} back as a settings document, with the key names of settings.json. */
final class SettingsJson {
    private SettingsJson() {}

    static ObjectNode toJson(Settings settings) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        if (settings.model() != null) {
            root.put("model", settings.model().selector());
        }
        ObjectNode roles = root.putObject("modelRoles");
        for (Map.Entry<String, ModelRef> role : settings.modelRoles().entrySet()) {
            roles.put(role.getKey(), role.getValue().selector());
        }
        ObjectNode providers = root.putObject("providers");
        for (ProviderConfig provider : settings.providers().values()) {
            ObjectNode node = providers.putObject(provider.key());
            node.put("api", provider.api().toString());
            if (provider.baseUrl() != null) {
                node.put("baseUrl", provider.baseUrl());
            }
            ArrayNode models = node.putArray("models");
            for (ModelConfig model : provider.models()) {
                ObjectNode modelNode = models.addObject().put("id", model.id());
                if (model.contextWindow() != null) {
                    modelNode.put("contextWindow", model.contextWindow());
                }
                if (model.name() != null) {
                    modelNode.put("name", model.name());
                }
            }
        }
        RetrySettings retry = settings.retry();
        ObjectNode retryNode = root.putObject("retry")
                .put("enabled", retry.enabled())
                .put("maxRetries", retry.maxRetries())
                .put("baseDelayMs", retry.baseDelayMs())
                .put("maxDelayMs", retry.maxDelayMs())
                .put("maxElapsedMs", retry.maxElapsedMs())
                .put("modelFallback", retry.modelFallback());
        ObjectNode chains = retryNode.putObject("fallbackChains");
        for (Map.Entry<String, List<String>> chain : retry.fallbackChains().entrySet()) {
            ArrayNode selectors = chains.putArray(chain.getKey());
            chain.getValue().forEach(selectors::add);
        }
        retryNode
                .put("fallbackRevertPolicy", retry.fallbackRevertPolicy().toString())
                .put("refusalPinMs", retry.refusalPinMs());
        TimeoutSettings timeouts = settings.timeouts();
        root.putObject("timeouts")
                .put("connectMs", timeouts.connectMs())
                .put("firstByteMs", timeouts.firstByteMs())
                .put("idleMs", timeouts.idleMs());
        LimitSettings limits = settings.limits();
        root.putObject("limits")
                .put("maxReplyChars", limits.maxReplyChars())
                .put("maxEventBytes", limits.maxEventBytes())
                .put("maxResponseBytes", limits.maxResponseBytes());
        root.put("systemPrompt", settings.systemPrompt());
        return root;
    }
}
