package dev.rebound.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.settings.LimitSettings;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import java.io.IOException;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;
import okio.ForwardingSource;
import okio.Okio;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streaming call, from request to final message, the same for every wire protocol: the {@link WireFormat} says
 * where the request goes and how the reply reads; this class sends it, enforces the timeouts, honours an abort at once,
 * sends a request lost on a stale kept-alive connection again (once, invisibly), reads HTTP errors and event streams,
 * and turns every way the call can end into a message. See {@link StreamingProvider} for the outcomes. Used once, by
 * the thread that runs it.
 */
final class StreamingCall {
    static final long MAX_ERROR_BODY_BYTES = 64 * 1024;
    static final long MAX_COMPLETE_BODY_BYTES = 8 * 1024 * 1024;
    private static final Logger log = LoggerFactory.getLogger(StreamingCall.class);
    private static final int MAX_QUOTED_BODY_CHARS = 200;
    private static final java.util.regex.Pattern HEADER_LIMIT =
            java.util.regex.Pattern.compile("not found: limit=(\\d{1,12})");
    /** Half of OkHttp's 256 KiB header limit: a header line cut short is never anywhere near this long. */
    private static final long HEADER_LINE_TOO_LONG = 128 * 1024;

    private final HttpClientSource client;
    private final Clock clock;
    private final StreamWatchdog watchdog;
    private final ObjectMapper mapper;
    private final ErrorBodies errorBodies;
    private final WireFormat wire;
    private final ProviderRequest request;
    private final RequestExtras extras;
    private final CallControl control;
    private final ReplyBuilder reply;
    private final StreamParser parser;
    /** Every text the server sends is scrubbed of every secret before it is parsed, cut or quoted. */
    private final KeyScrubber scrubber;

    private StreamWatchdog.Watch watch;
    private Map<String, String> responseHeaders = Map.of();
    private boolean stoppedReading;
    /** Whether the response body was read to its end (set by the reading thread before the call's outcome). */
    private boolean bodyEnded;
    /** Whether the events said the reply was complete (what may follow is a few bytes). */
    private boolean replyComplete;

    private boolean replyTooLarge;
    private Throwable readFailure;
    private RuntimeException handlingFailure;

    StreamingCall(
            StreamingProvider.Parts parts,
            WireFormat wire,
            ProviderRequest request,
            RequestExtras extras,
            ReplyBuilder reply,
            CallControl control) {
        this.client = parts.client();
        this.clock = parts.clock();
        this.watchdog = parts.watchdog();
        this.mapper = parts.mapper();
        this.errorBodies = parts.errorBodies();
        this.wire = wire;
        this.request = request;
        this.extras = extras;
        this.reply = reply;
        this.control = control;
        this.parser = wire.newParser(request, reply, mapper, errorBodies);
        this.scrubber = new KeyScrubber(request.keysToHide());
    }

    AssistantMessage run() {
        ProviderConfig provider = request.provider();
        HttpUrl base = provider.baseUrl() == null
                ? null
                : HttpUrl.parse(provider.baseUrl().strip());
        String misconfiguration = misconfiguration(provider, base);
        if (misconfiguration != null) {
            return failed(misconfiguration, ProviderFailure.of(FailureKind.CONFIGURATION));
        }
        HttpUrl url = extras.apply(wire.endpoint(base, request));
        OkHttpClient callClient = HttpClients.forCall(client.clientFor(url), request.timeouts());
        ConnectionReuse reuse = new ConnectionReuse();
        AtomicReference<Call> current = new AtomicReference<>(newCall(callClient, url, reuse));
        control.onAbort(() -> current.get().cancel());
        log.debug(
                "POST {} (provider {}, model {}, credential {})",
                // Neither the query (secret values) nor user:password@ of the base URL.
                url.newBuilder().query(null).username("").password("").build(),
                provider.key(),
                request.model().id(),
                request.credential() == null ? "none" : request.credential().label());
        try (StreamWatchdog.Watch started =
                watchdog.watch(request.timeouts(), () -> current.get().cancel())) {
            watch = started;
            Response received;
            try {
                received = current.get().execute();
            } catch (IOException e) {
                // Not when the watchdog ended the call: a request that timed out is not a request lost on a stale
                // connection, and sending it again would run without a first-byte limit.
                // Nor when part of a response had arrived (a header block too large to read, a status line cut
                // short): the server got the request and answered it, so it was no stale connection.
                if (isAborted()
                        || watch.expired() != null
                        || !reuse.lostOnAReusedConnection()
                        || responseBytesArrived(e)) {
                    return failedBeforeResponse(e, url);
                }
                // The server closed the pooled connection while it was idle: the request never reached it. Send it
                // again at once, once, on a fresh connection; nothing of this reaches the user.
                log.debug(
                        "Request to provider {} lost on a reused connection ({}); sending it again on a fresh one",
                        provider.key(),
                        TransportErrors.describe(e));
                callClient.connectionPool().evictAll();
                current.set(newCall(callClient, url, new ConnectionReuse()));
                if (isAborted()) {
                    return aborted();
                }
                try {
                    received = current.get().execute();
                } catch (IOException again) {
                    return failedBeforeResponse(again, url);
                }
            }
            Response response = received;
            try (response) {
                Runnable cancelIfCutShort = () -> {
                    // Closing a response whose body is not read to its end makes OkHttp read on for up to 100 ms to
                    // keep the connection: over 100 MB of a flooding error body on loopback. Unless the reply was
                    // complete (the rest is a few bytes), the connection is not worth it: cancelling closes it at
                    // once. (A small error body read whole keeps its connection for the retry.)
                    if (!bodyEnded && !replyComplete) {
                        current.get().cancel();
                    }
                };
                AssistantMessage answer = answer(response, url, cancelIfCutShort);
                cancelIfCutShort.run();
                return answer;
            }
        }
    }

    /**
     * What the response says. {@code cancelIfCutShort} runs before the body is closed while events are read (the event
     * reader closes it itself); the caller runs it again before closing the response.
     */
    private AssistantMessage answer(Response response, HttpUrl url, Runnable cancelIfCutShort) {
        watch.responseStarted();
        responseHeaders = FailureHeaders.of(response.headers());
        LimitSettings limits = request.limits();
        ResponseBody bounded = ResponseBodies.bounded(
                response.body(),
                limits.maxResponseBytes(),
                limits.maxEventBytes(),
                watch::activity,
                () -> bodyEnded = true);
        ResponseBody body = ResponseBody.create(
                Okio.buffer(new ForwardingSource(bounded.source()) {
                    @Override
                    public void close() throws IOException {
                        cancelIfCutShort.run();
                        super.close();
                    }
                }),
                bounded.contentType(),
                bounded.contentLength());
        if (response.isRedirect()) {
            return redirected(response, url);
        }
        if (!response.isSuccessful()) {
            return httpError(response.code(), response.message(), body);
        }
        if (isEventStream(body.contentType())) {
            EventSources.processResponse(response.newBuilder().body(body).build(), new Listener());
            return outcome();
        }
        return completeResponse(body);
    }

    private String misconfiguration(ProviderConfig provider, HttpUrl base) {
        if (provider.baseUrl() == null || provider.baseUrl().isBlank()) {
            return "Provider '" + provider.key() + "' has no baseUrl: set providers." + provider.key()
                    + ".baseUrl in settings.json (for example " + wire.exampleBaseUrl() + ")";
        }
        if (base == null) {
            return "Provider '" + provider.key() + "' has an invalid baseUrl '" + provider.baseUrl()
                    + "': expected an http:// or https:// URL such as " + wire.exampleBaseUrl();
        }
        return null;
    }

    private Call newCall(OkHttpClient callClient, HttpUrl url, ConnectionReuse reuse) {
        // No redirect is followed: OkHttp would turn a POST answered 301, 302 or 303 into a GET without the prompt,
        // and a redirect to https would need TLS mid-call (SharedHttpClients). Every 3xx is answered instead.
        return callClient
                .newBuilder()
                .eventListener(reuse)
                .followRedirects(false)
                .build()
                .newCall(httpRequest(url));
    }

    private Request httpRequest(HttpUrl url) {
        Request.Builder builder = new Request.Builder().url(url).header("Accept", "text/event-stream");
        wire.prepare(builder, request, mapper);
        extras.applyAfterKey(builder);
        return builder.build();
    }

    private AssistantMessage failedBeforeResponse(IOException e, HttpUrl url) {
        if (isAborted()) {
            return aborted();
        }
        if (watch.expired() == StreamWatchdog.Phase.FIRST_BYTE) {
            return timedOut(StreamWatchdog.Phase.FIRST_BYTE);
        }
        if (headerLineTooLong(e)) {
            return failed(
                    "The server at " + url.host() + " sent a response header line longer than 256 KiB, which is not "
                            + "HTTP any client can read; Rebound did not read it (a misbehaving server or proxy)",
                    ProviderFailure.of(FailureKind.PROTOCOL));
        }
        if (TransportErrors.isConnectTimeout(e)) {
            return failed(
                    "Connection timed out: could not connect to " + url.host() + ":" + url.port() + " within "
                            + request.timeouts().connectMs() + " ms (timeouts.connectMs) ("
                            + TransportErrors.describe(e) + ")",
                    ProviderFailure.of(FailureKind.TIMEOUT));
        }
        return failed(TransportErrors.beforeResponse(e, url), ProviderFailure.of(FailureKind.TRANSPORT));
    }

    /**
     * Whether OkHttp gave up on a response header line over its 256 KiB limit. Okio reports it as an EOFException
     * ({@code \n not found: limit=N content=…}), as it does a connection closed mid-line; {@code N} tells them apart:
     * it is the bytes it had when it stopped, the whole limit for a line too long, what had arrived for a cut one.
     */
    private static boolean headerLineTooLong(Throwable e) {
        return headerBytesRead(e) >= HEADER_LINE_TOO_LONG;
    }

    /**
     * Whether any byte of a response had arrived when reading its head failed. OkHttp's "unexpected end of stream"
     * wraps Okio's {@code \n not found: limit=N}, {@code N} being the bytes of the line it had: 0 on a connection the
     * server had closed before the request.
     */
    private static boolean responseBytesArrived(Throwable e) {
        return headerBytesRead(e) > 0;
    }

    /** The bytes of a response head line Okio had when it gave up, from its EOFException; -1 when none says. */
    private static long headerBytesRead(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            java.util.regex.Matcher limit = HEADER_LIMIT.matcher(String.valueOf(t.getMessage()));
            if (t instanceof java.io.EOFException && limit.find()) {
                return Long.parseLong(limit.group(1));
            }
        }
        return -1;
    }

    /**
     * A 3xx: no redirect of a prompt is followed (see {@link #newCall}). Terminal: no wait changes where the server
     * points.
     */
    private AssistantMessage redirected(Response response, HttpUrl url) {
        String location = response.header("Location");
        String target = location == null ? "" : " to " + scrubber.scrub(location);
        return failed(
                "The server at " + url.host() + " redirected the request (" + response.code() + " "
                        + HttpReasonPhrases.of(response.code(), response.message()) + target + "); Rebound does not "
                        + "follow a redirect of a prompt, which would send it again. Set the provider's baseUrl to the "
                        + "address it redirects to",
                ProviderFailure.of(FailureKind.PROTOCOL));
    }

    private AssistantMessage httpError(int status, String serverPhrase, ResponseBody body) {
        String text = "";
        String unreadable = null;
        try {
            text = scrubber.scrub(ResponseBodies.readErrorBody(body, MAX_ERROR_BODY_BYTES));
        } catch (IOException e) {
            if (isAborted()) {
                return aborted();
            }
            unreadable = TransportErrors.describe(e);
        }
        ErrorBody error = errorBodies.parse(text);
        String message = status + " " + HttpReasonPhrases.of(status, serverPhrase);
        if (error.message() != null) {
            message += ": " + error.message() + error.qualifiers();
        } else if (unreadable != null) {
            message += " (the error body could not be read: " + unreadable + ")";
        } else {
            message += " (no body)";
        }
        return failed(
                message, new ProviderFailure(FailureKind.HTTP, status, error.type(), error.code(), responseHeaders));
    }

    private AssistantMessage completeResponse(ResponseBody body) {
        String text;
        try {
            text = scrubber.scrub(ResponseBodies.readAtMost(
                    body, Math.min(MAX_COMPLETE_BODY_BYTES, request.limits().maxResponseBytes())));
        } catch (IOException e) {
            readFailure = e;
            return outcome();
        }
        if (parser.onCompleteResponse(text)) {
            return outcome();
        }
        MediaType type = body.contentType();
        String quoted = text.isBlank() ? "(empty body)" : ErrorBodies.singleLine(text, MAX_QUOTED_BODY_CHARS);
        return failed(
                "Expected an event stream (text/event-stream) but the server sent "
                        + (type == null ? "a body without content type" : type.toString())
                        + " that is not a reply of " + wire.api() + ": " + quoted,
                failure(FailureKind.PROTOCOL, ErrorBody.EMPTY));
    }

    /** What the stream amounts to once reading stopped, for whatever reason. */
    private AssistantMessage outcome() {
        StreamProblem problem = parser.problem();
        boolean providerError = problem != null
                && (problem.kind() == FailureKind.STREAM_ERROR || problem.kind() == FailureKind.ENVELOPE);
        if (providerError) {
            // Even after a stop reason: an error the provider sent after it means the reply did not end cleanly.
            return failed(problem.message(), failure(problem.kind(), problem.error()));
        }
        if (parser.ended()) {
            // A reply that ended is an answer, whatever junk or flood came after its end.
            return finished();
        }
        if (replyTooLarge) {
            return failed(
                    String.format(
                            Locale.ROOT,
                            "The reply is longer than limits.maxReplyChars (%,d characters); Rebound stopped reading it "
                                    + "after %,d characters. Raise the limit in settings.json if such replies are "
                                    + "expected",
                            request.limits().maxReplyChars(),
                            reply.characters()),
                    failure(FailureKind.TOO_LARGE, ErrorBody.EMPTY));
        }
        if (readFailure instanceof ResponseBodies.TooLarge tooLarge) {
            return failed(tooLarge.getMessage(), failure(FailureKind.TOO_LARGE, ErrorBody.EMPTY));
        }
        if (problem != null) {
            return failed(problem.message(), failure(problem.kind(), problem.error()));
        }
        if (handlingFailure != null) {
            return internalError(handlingFailure);
        }
        if (isAborted()) {
            return aborted();
        }
        StreamWatchdog.Phase expired = watch.expired();
        if (expired != null) {
            return timedOut(expired);
        }
        if (readFailure != null) {
            String message = readFailure instanceof IOException io
                    ? TransportErrors.duringStream(io, reply.characters())
                    : "Connection lost while streaming after " + reply.characters() + " characters ("
                            + TransportErrors.describe(readFailure) + ")";
            return failed(message, failure(FailureKind.TRANSPORT, ErrorBody.EMPTY));
        }
        return failed(
                "The stream ended before the reply was complete (" + parser.missingEnd() + "); " + reply.characters()
                        + " characters had arrived",
                failure(FailureKind.TRUNCATED, ErrorBody.EMPTY));
    }

    private AssistantMessage finished() {
        return switch (parser.ending()) {
            case StreamEnding.Complete complete -> {
                wire.completed(request, parser);
                yield reply.complete(complete.reason(), clock.millis());
            }
            case StreamEnding.Stopped stopped ->
                reply.failed(stopped.message(), stopped.details(), null, clock.millis());
            case StreamEnding.Failed failedEnding ->
                failed(
                        failedEnding.problem().message(),
                        failure(
                                failedEnding.problem().kind(),
                                failedEnding.problem().error()));
        };
    }

    private AssistantMessage timedOut(StreamWatchdog.Phase phase) {
        if (phase == StreamWatchdog.Phase.FIRST_BYTE) {
            return failed(
                    "Request timed out: no response from the server within " + watch.limitMs(phase)
                            + " ms (timeouts.firstByteMs)",
                    ProviderFailure.of(FailureKind.TIMEOUT));
        }
        return failed(
                "Stream stalled: no data for " + watch.limitMs(phase) + " ms (timeouts.idleMs); " + reply.characters()
                        + " characters had arrived",
                failure(FailureKind.TIMEOUT, ErrorBody.EMPTY));
    }

    /** A failure after the response headers arrived: it keeps their retry-relevant part. */
    private ProviderFailure failure(FailureKind kind, ErrorBody error) {
        return new ProviderFailure(kind, null, error.type(), error.code(), responseHeaders);
    }

    private AssistantMessage internalError(RuntimeException e) {
        log.warn(
                "Unexpected error while handling a reply of provider {}: {}",
                request.provider().key(),
                TransportErrors.describe(e),
                e);
        return failed(
                "Internal error while handling the reply: " + TransportErrors.describe(e),
                failure(FailureKind.PROTOCOL, ErrorBody.EMPTY));
    }

    private AssistantMessage failed(String message, ProviderFailure failure) {
        return reply.failed(message, null, failure, clock.millis());
    }

    private AssistantMessage aborted() {
        return reply.aborted(clock.millis());
    }

    private boolean isAborted() {
        return control.isAborted() || Thread.currentThread().isInterrupted();
    }

    private static boolean isEventStream(MediaType type) {
        return type != null && type.type().equals("text") && type.subtype().equals("event-stream");
    }

    /** Feeds the events to the parser on the calling thread; records why reading stopped. */
    private final class Listener extends EventSourceListener {
        @Override
        public void onOpen(EventSource eventSource, Response response) {
            control.onAbort(eventSource::cancel);
        }

        @Override
        public void onEvent(EventSource eventSource, String id, String type, String data) {
            try {
                if (parser.onEvent(type, scrubber.scrub(data))) {
                    replyComplete = true;
                    stopReading(eventSource);
                } else if (reply.characters() > request.limits().maxReplyChars()) {
                    replyTooLarge = true;
                    stopReading(eventSource);
                }
            } catch (RuntimeException e) {
                handlingFailure = e;
                stopReading(eventSource);
            }
        }

        @Override
        public void onFailure(EventSource eventSource, Throwable t, Response response) {
            if (!stoppedReading) {
                readFailure = t;
            }
        }

        private void stopReading(EventSource eventSource) {
            stoppedReading = true;
            eventSource.cancel();
        }
    }
}
