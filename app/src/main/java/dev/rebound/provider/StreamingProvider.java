package dev.rebound.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.json.Json;
import dev.rebound.settings.ConfigValue;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider that streams replies in one {@link WireFormat} over HTTP, read as server-sent events on the calling thread.
 *
 * <p>Outcomes, the same for every wire format (every message is scrubbed of every configured secret; the content
 * received so far is always kept):
 * <ul>
 *   <li>a normal end → stop, length or toolUse; a refusal or a content filter → error with stop details
 *       {@code refusal} or {@code sensitive} and no {@link ProviderFailure} (not a failed call);</li>
 *   <li>HTTP error status → {@link FailureKind#HTTP}: {@code <status> <reason>: <provider message> (type: X, code: Y,
 *       retryDelay: Z)} with only the parts present, or {@code 503 Service Unavailable (no body)};</li>
 *   <li>an error inside a 200 stream → {@link FailureKind#STREAM_ERROR} ({@link FailureKind#ENVELOPE} before the
 *       stream's first event): {@code The provider reported an error mid-stream: <message> (type: X, code: Y)}; its
 *       httpStatus is null, a numeric code in the error object is kept as text;</li>
 *   <li>no connection or no response → {@link FailureKind#TRANSPORT} ({@code Connection failed: connection refused by
 *       host:port (…)}, {@code Connection reset before the response headers arrived (…)}); lost mid-stream:
 *       {@code Connection lost while streaming after N characters (…)}; a request lost on a stale kept-alive
 *       connection is sent again at once, once, and never shows;</li>
 *   <li>end of stream without its terminal event → {@link FailureKind#TRUNCATED}: {@code The stream ended before the
 *       reply was complete (<what was missing>); N characters had arrived};</li>
 *   <li>timeouts → {@link FailureKind#TIMEOUT} (first byte, idle silence, connect; see {@link StreamWatchdog});</li>
 *   <li>an event that is not the protocol → {@link FailureKind#PROTOCOL};</li>
 *   <li>no or invalid baseUrl, an unset environment variable named by an extra header → {@link
 *       FailureKind#CONFIGURATION};</li>
 *   <li>an abort → stop reason aborted, {@code Request was aborted}, at once.</li>
 * </ul>
 * A failure with observable content gets the stop details {@code stream_interrupted_after_content}.
 */
public final class StreamingProvider implements ChatProvider {
    private static final Logger log = LoggerFactory.getLogger(StreamingProvider.class);

    private final WireFormat wire;
    private final HttpClientSource client;
    private final Clock clock;
    private final StreamWatchdog watchdog;
    private final Map<String, String> environment;
    private final ObjectMapper mapper = Json.newMapper();
    private final ErrorBodies errorBodies = new ErrorBodies(mapper);

    /** What a call shares with its provider. */
    record Parts(
            HttpClientSource client,
            Clock clock,
            StreamWatchdog watchdog,
            ObjectMapper mapper,
            ErrorBodies errorBodies) {}

    /**
     * @param wire the wire format spoken
     * @param client gives the client for a call's URL ({@link SharedHttpClients}), when the call is made
     * @param clock stamps the final messages
     * @param watchdog enforces the first-byte and idle timeouts
     * @param environment where extra headers and query values named by an environment variable are read
     */
    public StreamingProvider(
            WireFormat wire,
            HttpClientSource client,
            Clock clock,
            StreamWatchdog watchdog,
            Map<String, String> environment) {
        this.wire = Objects.requireNonNull(wire, "wire");
        this.client = Objects.requireNonNull(client, "client");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.watchdog = Objects.requireNonNull(watchdog, "watchdog");
        this.environment = Map.copyOf(environment);
    }

    /** A provider reading no environment. */
    public StreamingProvider(WireFormat wire, OkHttpClient client, Clock clock, StreamWatchdog watchdog) {
        this(wire, HttpClientSource.of(client), clock, watchdog, Map.of());
    }

    /** The wire format spoken. */
    public WireFormat wire() {
        return wire;
    }

    /**
     * The simulator speaks real wire formats; its replies are recorded as the simulator's, unless it is spoken to in a
     * format its provider names ({@code format}): then as that format's.
     */
    private String recordedApi(ProviderRequest request) {
        ProviderConfig provider = request.provider();
        return provider.api() == ProviderApi.SIMULATOR && provider.format() == null
                ? ProviderApi.SIMULATOR.toString()
                : wire.api();
    }

    @Override
    public AssistantMessage stream(ProviderRequest request, StreamListener listener, CallControl control) {
        if (request.credential() != null
                && !ConfigValue.headerSafe(request.credential().secret().reveal())) {
            return new ReplyBuilder(request, recordedApi(request), listener)
                    .failed(
                            "The key '" + request.credential().label() + "' of provider '"
                                    + request.provider().key()
                                    + "' holds a character that cannot go in an HTTP header (a line break or a "
                                    + "non-ASCII character, often left by copying it): enter it again",
                            null,
                            ProviderFailure.of(FailureKind.CONFIGURATION),
                            clock.millis());
        }
        RequestExtras extras;
        try {
            extras = RequestExtras.of(
                    request.provider(),
                    environment,
                    request.credential() == null
                            ? null
                            : request.credential().secret().reveal());
        } catch (RequestExtras.Unresolved e) {
            return new ReplyBuilder(request, recordedApi(request), listener)
                    .failed(e.getMessage(), null, ProviderFailure.of(FailureKind.CONFIGURATION), clock.millis());
        }
        ProviderRequest hiding = request.hiding(extras.secrets());
        AssistantMessage result = call(hiding, extras, listener, control);
        if (result.isError()
                && result.content().isEmpty()
                && !control.isAborted()
                && wire.adjustAfter(hiding, result)) {
            log.info(
                    "Provider {} refused an optional part of the request for {} ({}); sent again without it",
                    request.provider().key(),
                    request.model().id(),
                    result.errorMessage());
            result = call(hiding, extras, listener, control);
        }
        if (log.isDebugEnabled()) {
            log.debug(
                    "Call to provider {} ended: {}{}",
                    request.provider().key(),
                    result.stopReason(),
                    result.errorMessage() == null ? "" : " - " + result.errorMessage());
        }
        return result;
    }

    private AssistantMessage call(
            ProviderRequest request, RequestExtras extras, StreamListener listener, CallControl control) {
        ReplyBuilder reply = new ReplyBuilder(request, recordedApi(request), listener);
        AssistantMessage result;
        try {
            Parts parts = new Parts(client, clock, watchdog, mapper, errorBodies);
            result = new StreamingCall(parts, wire, request, extras, reply, control).run();
        } catch (Exception | Error e) {
            // Also an Error (an OutOfMemoryError while reading, say): the call still ends as a failed reply. An
            // exception's message may quote a secret (OkHttp quotes a header value it refuses): the log gets it
            // scrubbed, and the stack trace only when there was nothing to scrub.
            String described = TransportErrors.describe(e);
            String scrubbed = new KeyScrubber(request.keysToHide()).scrub(described);
            if (scrubbed.equals(described)) {
                log.warn(
                        "Unexpected error in a call to provider {}: {}",
                        request.provider().key(),
                        described,
                        e);
            } else {
                log.warn(
                        "Unexpected error in a call to provider {}: {}",
                        request.provider().key(),
                        scrubbed);
            }
            result = reply.failed(
                    "Internal error while handling the reply: " + scrubbed,
                    null,
                    ProviderFailure.of(FailureKind.PROTOCOL),
                    clock.millis());
        }
        return result;
    }
}
