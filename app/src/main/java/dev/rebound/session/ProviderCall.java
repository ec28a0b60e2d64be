package dev.rebound.session;

import dev.rebound.auth.Credential;
import dev.rebound.auth.CredentialSource;
import dev.rebound.auth.CredentialsBlocked;
import dev.rebound.event.MessageUpdate;
import dev.rebound.provider.CallControl;
import dev.rebound.provider.ChatProvider;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.StreamListener;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One provider call of a turn: the model's provider and wire protocol looked up in the settings of the moment, its
 * key from the session's credentials, the stream's deltas emitted as {@code message_update}, and the call made
 * abortable through the turn. A call that cannot be made (provider not configured, protocol not spoken, every key
 * blocked) is answered with a failed reply saying why, as a real failure would be.
 */
final class ProviderCall {

    /** A call that broke inside Rebound; {@link #partial()} is the failed reply it leaves. */
    static final class Broken extends RuntimeException {
        private final transient AssistantMessage partial;

        Broken(AssistantMessage partial, Throwable cause) {
            super(cause);
            this.partial = partial;
        }

        AssistantMessage partial() {
            return partial;
        }
    }

    private final Supplier<Settings> settings;
    private final ProviderDirectory providers;
    private final CredentialSource credentials;
    private final RuntimeContext context;
    private final SessionEvents events;
    private final Clock clock;
    /** The session's lock, guarding {@link Turn#control}. */
    private final Object lock;

    ProviderCall(
            Supplier<Settings> settings,
            ProviderDirectory providers,
            CredentialSource credentials,
            RuntimeContext context,
            SessionEvents events,
            Clock clock,
            Object lock) {
        this.settings = settings;
        this.providers = providers;
        this.credentials = credentials;
        this.context = context;
        this.events = events;
        this.clock = clock;
        this.lock = lock;
    }

    /** Calls the current model for one attempt of the turn, or says why it was not called, as a reply. */
    AssistantMessage call(Turn turn, String messageId, ModelRef current) {
        Settings now = settings.get();
        Optional<ProviderConfig> config = now.provider(current.provider());
        if (config.isEmpty()) {
            return configurationFailure(
                    messageId,
                    current,
                    null,
                    "Provider '" + current.provider() + "' of model " + current.selector()
                            + " is not configured in settings.json.");
        }
        Optional<ChatProvider> implementation = providers.forApi(config.get().api());
        if (implementation.isEmpty()) {
            return configurationFailure(
                    messageId,
                    current,
                    config.get().api().toString(),
                    "Provider '"
                            + current.provider() + "' uses api '" + config.get().api()
                            + "', which this build of Rebound cannot speak.");
        }
        Optional<CredentialsBlocked> blocked = credentials.blocked(current.provider());
        if (blocked.isPresent()) {
            return credentialsBlocked(messageId, current, config.get().api().toString(), blocked.get());
        }
        CallControl control = new CallControl();
        synchronized (lock) {
            turn.control = control;
            if (turn.userAborted) {
                control.abort();
            }
        }
        StringBuilder text = new StringBuilder();
        StringBuilder thinking = new StringBuilder();
        Credential credential = credentials.credentialFor(current.provider()).orElse(null);
        try {
            ProviderRequest request = new ProviderRequest(
                    messageId,
                    config.get(),
                    current,
                    context.forProvider(),
                    credential,
                    now.timeouts(),
                    credentials.allCredentials().stream()
                            .filter(c -> credential == null || !c.equals(credential))
                            .toList(),
                    List.of(),
                    context.server(),
                    now.limits(),
                    context.systemPrompt() != null ? context.systemPrompt() : now.systemPrompt());
            return implementation.get().stream(
                    request,
                    new StreamListener() {
                        @Override
                        public void onTextDelta(String delta) {
                            text.append(delta);
                            events.emit(turn, new MessageUpdate(messageId, MessageUpdate.TEXT, delta));
                        }

                        @Override
                        public void onThinkingDelta(String delta) {
                            thinking.append(delta);
                            events.emit(turn, new MessageUpdate(messageId, MessageUpdate.THINKING, delta));
                        }
                    },
                    control);
        } catch (RuntimeException | Error e) {
            // A bug, not a provider's failure: the reply ends as failed with what was shown of it, so the chat and
            // its file keep the same reply (TurnLoop ends the turn).
            List<ContentBlock> shown = new ArrayList<>();
            if (!thinking.isEmpty()) {
                shown.add(new ContentBlock.Thinking(thinking.toString(), false));
            }
            if (!text.isEmpty()) {
                shown.add(new ContentBlock.Text(text.toString()));
            }
            AssistantMessage partial = new AssistantMessage(
                    messageId,
                    shown,
                    current.provider(),
                    current.id(),
                    config.get().api().toString(),
                    credential == null ? null : credential.label(),
                    null,
                    StopReason.ERROR,
                    TurnLoop.internalError(e),
                    null,
                    null,
                    clock.millis());
            throw new Broken(partial, e);
        } finally {
            synchronized (lock) {
                turn.control = null;
            }
        }
    }

    /** The reply of a call that was not made because every key of the provider is blocked (§5). */
    private AssistantMessage credentialsBlocked(String messageId, ModelRef current, String api, CredentialsBlocked b) {
        long wait = Math.max(0, b.untilEpochMs() - clock.millis());
        String text = "Every API key of provider '" + b.provider() + "' is blocked after usage limits (" + b.detail()
                + "), so Rebound did not send the request.";
        ProviderFailure failure = new ProviderFailure(
                FailureKind.CREDENTIALS_BLOCKED,
                null,
                b.billingOnly() ? "billing" : "usage_limit",
                "credentials_blocked",
                Map.of("retry-after-ms", Long.toString(wait)));
        return new AssistantMessage(
                messageId,
                List.of(),
                current.provider(),
                current.id(),
                api,
                b.soonestLabel(),
                null,
                StopReason.ERROR,
                text,
                null,
                failure,
                clock.millis());
    }

    private AssistantMessage configurationFailure(String messageId, ModelRef current, String api, String text) {
        return new AssistantMessage(
                messageId,
                List.of(),
                current.provider(),
                current.id(),
                api,
                null,
                null,
                StopReason.ERROR,
                text,
                null,
                ProviderFailure.of(FailureKind.CONFIGURATION),
                clock.millis());
    }
}
