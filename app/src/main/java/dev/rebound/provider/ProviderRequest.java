package dev.rebound.provider;

import dev.rebound.auth.Credential;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.TimeoutSettings;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;
import java.util.List;
import java.util.Objects;

/**
 * Everything one provider call needs.
 *
 * @param messageId the id the resulting assistant message gets
 * @param provider the provider's configuration (api, base URL)
 * @param model the model to ask
 * @param context the runtime context: the messages sent, oldest first (failed attempts already removed)
 * @param credential the credential to authenticate with, or null for servers that need none (a local Ollama)
 * @param timeouts connect, first-byte and idle timeouts
 */
public record ProviderRequest(
        String messageId,
        ProviderConfig provider,
        ModelRef model,
        List<ChatMessage> context,
        Credential credential,
        TimeoutSettings timeouts) {
    public ProviderRequest {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        context = List.copyOf(context);
        Objects.requireNonNull(timeouts, "timeouts");
    }
}
