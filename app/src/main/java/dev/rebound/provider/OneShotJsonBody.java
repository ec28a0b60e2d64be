package dev.rebound.provider;

import java.nio.charset.StandardCharsets;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.BufferedSink;

/**
 * A JSON request body that OkHttp must not send twice. OkHttp silently retries a request whose connection failed; for
 * a body it may resend, that includes a request the server already received (a reset before the response headers),
 * which can bill a prompt twice and hides the failure from the retry engine. A one-shot body limits OkHttp's own
 * retries to requests whose body was never written (an unreachable route). A request lost on a stale pooled connection
 * is sent again by the call itself, once, on a fresh connection ({@link ConnectionReuse}); every other failure reaches
 * the session, which retries visibly, with backoff and events.
 */
public final class OneShotJsonBody extends RequestBody {
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

    private final byte[] bytes;

    public OneShotJsonBody(String json) {
        this.bytes = json.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public MediaType contentType() {
        return JSON;
    }

    @Override
    public long contentLength() {
        return bytes.length;
    }

    @Override
    public void writeTo(BufferedSink sink) throws java.io.IOException {
        sink.write(bytes);
    }

    @Override
    public boolean isOneShot() {
        return true;
    }
}
