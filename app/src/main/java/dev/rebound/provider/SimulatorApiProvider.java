package dev.rebound.provider;

import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider of {@code api: simulator}. The simulator speaks the four wire formats over real HTTP, so this sends the
 * call through the real provider of the provider's {@code format} (Chat Completions when it names none) unchanged —
 * OkHttp, the stream parser, the watchdog and the error mapping all run as they do against a real provider. The call
 * goes to the provider's {@code baseUrl} when it has one (a standalone {@code rebound simulate}), else to the built-in
 * simulator, which {@code builtInBaseUrl} starts on first use. A reply is recorded with {@code api: simulator}, or with
 * the format's api when one is named (so that what is particular to a format, such as a stale Responses replay, is
 * judged as it would be against the real provider).
 */
public final class SimulatorApiProvider implements ChatProvider {
    private static final Logger LOG = LoggerFactory.getLogger(SimulatorApiProvider.class);

    private final Map<ProviderApi, ChatProvider> byFormat;
    private final Supplier<String> builtInBaseUrl;
    private final Clock clock;

    /**
     * @param byFormat the provider that speaks each wire format (Chat Completions at least)
     * @param builtInBaseUrl the built-in simulator's base URL, starting it if needed; may throw when it cannot start
     * @param clock stamps the message of a simulator that could not start
     */
    public SimulatorApiProvider(Map<ProviderApi, ChatProvider> byFormat, Supplier<String> builtInBaseUrl, Clock clock) {
        this.byFormat = Map.copyOf(byFormat);
        if (!this.byFormat.containsKey(ProviderApi.OPENAI_COMPLETIONS)) {
            throw new IllegalArgumentException("the simulator needs at least Chat Completions");
        }
        this.builtInBaseUrl = Objects.requireNonNull(builtInBaseUrl, "builtInBaseUrl");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A simulator spoken to in Chat Completions only. */
    public SimulatorApiProvider(ChatProvider completions, Supplier<String> builtInBaseUrl, Clock clock) {
        this(Map.of(ProviderApi.OPENAI_COMPLETIONS, completions), builtInBaseUrl, clock);
    }

    @Override
    public AssistantMessage stream(ProviderRequest request, StreamListener listener, CallControl control) {
        ProviderConfig config = request.provider();
        ProviderApi format = config.format() == null ? ProviderApi.OPENAI_COMPLETIONS : config.format();
        ChatProvider provider = byFormat.get(format);
        if (provider == null) {
            return failed(request, listener, "The simulator cannot be spoken to in " + format + " in this build.");
        }
        String baseUrl = config.baseUrl();
        if (baseUrl == null || baseUrl.isBlank()) {
            try {
                baseUrl = builtInBaseUrl.get();
            } catch (RuntimeException e) {
                LOG.warn("The built-in simulator could not start", e);
                return failed(
                        request,
                        listener,
                        "The built-in simulator could not start (" + e.getMessage() + "). Restart Rebound, or "
                                + "configure a provider in settings.json.");
            }
        }
        return provider.stream(request.withProvider(config.withBaseUrl(baseUrl)), listener, control);
    }

    private AssistantMessage failed(ProviderRequest request, StreamListener listener, String message) {
        return new ReplyBuilder(request, ProviderApi.SIMULATOR.toString(), listener)
                .failed(message, null, ProviderFailure.of(FailureKind.CONFIGURATION), clock.millis());
    }
}
