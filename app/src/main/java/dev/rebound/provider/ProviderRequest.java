package dev.rebound.provider;

import dev.rebound.auth.Credential;
import dev.rebound.settings.LimitSettings;
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
 * @param otherCredentials every other configured credential: a server that echoes any of their keys (one in use before
 *     a switch, say) has it removed like the key in use, from every text kept or shown
 * @param hiddenValues other secrets of the call (secret extra headers and query values, a password in the base URL),
 *     removed like keys
 * @param conversation what the server keeps of this chat (the Responses API's stored replies), or null when the
 *     caller keeps nothing: every call then sends the whole conversation
 * @param limits how much the reply may hold before reading stops
 * @param systemPrompt the instructions sent with the conversation (the chat's own, or the settings' default); empty
 *     for none
 */
public record ProviderRequest(
        String messageId,
        ProviderConfig provider,
        ModelRef model,
        List<ChatMessage> context,
        Credential credential,
        TimeoutSettings timeouts,
        List<Credential> otherCredentials,
        List<String> hiddenValues,
        ServerConversation conversation,
        LimitSettings limits,
        String systemPrompt) {
    public ProviderRequest {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        context = List.copyOf(context);
        Objects.requireNonNull(timeouts, "timeouts");
        otherCredentials = otherCredentials == null ? List.of() : List.copyOf(otherCredentials);
        hiddenValues = hiddenValues == null ? List.of() : List.copyOf(hiddenValues);
        limits = limits == null ? LimitSettings.DEFAULTS : limits;
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
    }

    /** A request that keeps no server-side conversation and hides no secret but keys. */
    public ProviderRequest(
            String messageId,
            ProviderConfig provider,
            ModelRef model,
            List<ChatMessage> context,
            Credential credential,
            TimeoutSettings timeouts,
            List<Credential> otherCredentials) {
        this(messageId, provider, model, context, credential, timeouts, otherCredentials, List.of(), null, null, "");
    }

    /** A request that knows no other credential than its own. */
    public ProviderRequest(
            String messageId,
            ProviderConfig provider,
            ModelRef model,
            List<ChatMessage> context,
            Credential credential,
            TimeoutSettings timeouts) {
        this(messageId, provider, model, context, credential, timeouts, List.of());
    }

    /** Every key a text from the provider must never show: the one in use and every other configured one. */
    public List<String> keysToHide() {
        List<String> keys = new java.util.ArrayList<>(otherCredentials.size() + 1);
        if (credential != null) {
            keys.add(credential.secret().reveal());
        }
        otherCredentials.forEach(c -> keys.add(c.secret().reveal()));
        keys.addAll(hiddenValues);
        return keys;
    }

    /** This request sent to another provider configuration (the built-in simulator's base URL, say). */
    public ProviderRequest withProvider(ProviderConfig replaced) {
        return new ProviderRequest(
                messageId,
                replaced,
                model,
                context,
                credential,
                timeouts,
                otherCredentials,
                hiddenValues,
                conversation,
                limits,
                systemPrompt);
    }

    /** This request with other timeouts. */
    public ProviderRequest withTimeouts(TimeoutSettings replaced) {
        return new ProviderRequest(
                messageId,
                provider,
                model,
                context,
                credential,
                replaced,
                otherCredentials,
                hiddenValues,
                conversation,
                limits,
                systemPrompt);
    }

    /** This request, keeping what the server stores of the chat in {@code state}. */
    public ProviderRequest withConversation(ServerConversation state) {
        return new ProviderRequest(
                messageId,
                provider,
                model,
                context,
                credential,
                timeouts,
                otherCredentials,
                hiddenValues,
                state,
                limits,
                systemPrompt);
    }

    /** This request with these instructions (empty for none). */
    public ProviderRequest withSystemPrompt(String instructions) {
        return new ProviderRequest(
                messageId,
                provider,
                model,
                context,
                credential,
                timeouts,
                otherCredentials,
                hiddenValues,
                conversation,
                limits,
                instructions);
    }

    /** This request with other limits. */
    public ProviderRequest withLimits(LimitSettings replaced) {
        return new ProviderRequest(
                messageId,
                provider,
                model,
                context,
                credential,
                timeouts,
                otherCredentials,
                hiddenValues,
                conversation,
                replaced,
                systemPrompt);
    }

    /** This request, also hiding {@code more} secrets. */
    public ProviderRequest hiding(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new java.util.ArrayList<>(hiddenValues);
        all.addAll(more);
        return new ProviderRequest(
                messageId,
                provider,
                model,
                context,
                credential,
                timeouts,
                otherCredentials,
                all,
                conversation,
                limits,
                systemPrompt);
    }
}
