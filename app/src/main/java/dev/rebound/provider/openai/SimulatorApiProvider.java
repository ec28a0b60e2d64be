package dev.rebound.provider.openai;

import dev.rebound.provider.CallControl;
import dev.rebound.provider.ChatProvider;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.ReplyBuilder;
import dev.rebound.provider.StreamListener;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider of {@code api: simulator}. The simulator speaks Chat Completions over real HTTP, so this sends the call
 * through {@link OpenAiCompletionsProvider} unchanged — OkHttp, the stream parser, the watchdog and the error mapping
 * all run as they do against a real provider, and the reply is recorded with {@code api: simulator}. The call goes to
 * the provider's {@code baseUrl} when it has one (a standalone {@code rebound simulate}), else to the built-in
 * simulator, which {@code builtInBaseUrl} starts on first use.
 */
public final class SimulatorApiProvider implements ChatProvider {
    private static final Logger LOG = LoggerFactory.getLogger(SimulatorApiProvider.class);

    private final ChatProvider completions;
    private final Supplier<String> builtInBaseUrl;
    private final Clock clock;

    /**
     * @param completions the Chat Completions provider that makes the call
     * @param builtInBaseUrl the built-in simulator's base URL, starting it if needed; may throw when it cannot start
     * @param clock stamps the message of a simulator that could not start
     */
    public SimulatorApiProvider(ChatProvider completions, Supplier<String> builtInBaseUrl, Clock clock) {
        this.completions = Objects.requireNonNull(completions, "completions");
        this.builtInBaseUrl = Objects.requireNonNull(builtInBaseUrl, "builtInBaseUrl");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public AssistantMessage stream(ProviderRequest request, StreamListener listener, CallControl control) {
        ProviderConfig config = request.provider();
        String baseUrl = config.baseUrl();
        if (baseUrl == null || baseUrl.isBlank()) {
            try {
                baseUrl = builtInBaseUrl.get();
            } catch (RuntimeException e) {
                LOG.warn("The built-in simulator could not start", e);
                return new ReplyBuilder(request, ProviderApi.SIMULATOR.toString(), listener)
                        .failed(
                                "The built-in simulator could not start (" + e.getMessage() + "). Restart Rebound, or "
                                        + "configure a provider in settings.json.",
                                null,
                                ProviderFailure.of(FailureKind.CONFIGURATION),
                                clock.millis());
            }
        }
        ProviderConfig withBaseUrl = new ProviderConfig(
                config.key(), config.api(), baseUrl, config.models(), config.headers(), config.query(), config.store());
        ProviderRequest routed = request.withProvider(withBaseUrl);
        return completions.stream(routed, listener, control);
    }
}
