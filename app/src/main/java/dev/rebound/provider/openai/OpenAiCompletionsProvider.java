package dev.rebound.provider.openai;

import dev.rebound.provider.CallControl;
import dev.rebound.provider.ChatProvider;
import dev.rebound.provider.HttpClientSource;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.provider.StreamListener;
import dev.rebound.provider.StreamWatchdog;
import dev.rebound.provider.StreamingProvider;
import dev.rebound.settings.ProviderApi;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import java.time.Clock;
import java.util.Map;
import okhttp3.OkHttpClient;

/**
 * Streams replies from OpenAI's Chat Completions API and every server compatible with it (Ollama, LM Studio, vLLM,
 * OpenRouter, Groq, DeepSeek, Mistral, Azure…): {@code POST {baseUrl}/chat/completions} with {@code stream: true},
 * read as server-sent events on the calling thread. {@code Authorization: Bearer <key>} is sent only when the request
 * has a credential, and the key appears nowhere else.
 *
 * <p>Outcomes (every error message is redacted of the key; content received so far is always kept):
 * <ul>
 *   <li>finish_reason {@code stop}/{@code length}/{@code tool_calls} → stop, length, toolUse; {@code [DONE]} without a
 *       finish_reason is a normal stop, and so is a finish_reason without a later {@code [DONE]};</li>
 *   <li>finish_reason {@code content_filter} → error with stop details {@code sensitive}: {@code The provider's content
 *       filter stopped the reply after N characters (finish_reason: content_filter)}; a {@code refusal} →
 *       error with stop details {@code refusal}: {@code The model refused to answer: <refusal>}. Neither is a failed
 *       call, so neither has a {@link ProviderFailure};</li>
 *   <li>HTTP error status → {@link FailureKind#HTTP}: {@code <status> <reason>: <provider message> (type: X, code: Y,
 *       retryDelay: Z)} with only the parts present, or {@code 503 Service Unavailable (no body)};</li>
 *   <li>error object inside a 200 stream → {@link FailureKind#STREAM_ERROR}: {@code The provider reported an error
 *       mid-stream: <message> (type: X, code: Y)}. Its httpStatus is null: the real status was 200 and says nothing
 *       about the failure; a numeric code in the error object (OpenRouter's 429 or 502) is kept as errorCode text
 *       ({@code "429"}), so that the retry classifier can use it without mistaking it for the call's status;</li>
 *   <li>no connection or no response → {@link FailureKind#TRANSPORT}: {@code Connection failed: connection refused by
 *       host:port (ConnectException: …)}, {@code Connection failed: cannot resolve host h (…)}, {@code Connection failed:
 *       TLS handshake with host:port failed (…)}, {@code Connection reset before the response headers arrived (…)};
 *       lost mid-stream: {@code Connection lost while streaming after N characters (SocketException: …)};</li>
 *   <li>end of stream without finish_reason or [DONE] → {@link FailureKind#TRUNCATED}: {@code The stream ended before
 *       the reply was complete (no finish_reason or [DONE] received); N characters had arrived};</li>
 *   <li>timeouts → {@link FailureKind#TIMEOUT}: {@code Request timed out: no response from the server within N ms
 *       (timeouts.firstByteMs)}, {@code Stream stalled: no data for N ms (timeouts.idleMs); N characters had arrived},
 *       {@code Connection timed out: could not connect to host:port within N ms (timeouts.connectMs) (…)}. The
 *       first-byte limit runs until the response headers arrive; from then on the idle limit bounds every silence
 *       (see {@link StreamWatchdog});</li>
 *   <li>an event that is not JSON, or a 200 body that is neither an event stream nor a chat completion →
 *       {@link FailureKind#PROTOCOL}; a non-streamed chat completion (a proxy that ignored {@code stream: true}) is
 *       accepted, its text passed to the listener as one delta;</li>
 *   <li>no or invalid baseUrl, or a provider of another api → {@link FailureKind#CONFIGURATION};</li>
 *   <li>an abort → stop reason aborted, {@code Request was aborted}.</li>
 * </ul>
 * A failure with observable content gets the stop details {@code stream_interrupted_after_content}. "Characters" count
 * text, thinking and tool-call arguments. The calls themselves are made by a {@link StreamingProvider} speaking
 * {@link ChatCompletionsWire}.
 */
public final class OpenAiCompletionsProvider implements ChatProvider {
    /** The settings name of the api this provider speaks. */
    public static final String API = ProviderApi.OPENAI_COMPLETIONS.toString();

    private final StreamingProvider streaming;

    /**
     * @param client the shared client ({@link dev.rebound.provider.HttpClients#newSharedClient()})
     * @param clock stamps the final messages
     * @param watchdog enforces the first-byte and idle timeouts
     */
    public OpenAiCompletionsProvider(OkHttpClient client, Clock clock, StreamWatchdog watchdog) {
        this(HttpClientSource.of(client), clock, watchdog, Map.of());
    }

    /**
     * @param client gives the client for a call's URL ({@link dev.rebound.provider.SharedHttpClients})
     * @param clock stamps the final messages
     * @param watchdog enforces the first-byte and idle timeouts
     * @param environment where extra header and query values named by an environment variable are read
     */
    public OpenAiCompletionsProvider(
            HttpClientSource client, Clock clock, StreamWatchdog watchdog, Map<String, String> environment) {
        this.streaming = new StreamingProvider(new ChatCompletionsWire(), client, clock, watchdog, environment);
    }

    @Override
    public AssistantMessage stream(ProviderRequest request, StreamListener listener, CallControl control) {
        return streaming.stream(request, listener, control);
    }
}
