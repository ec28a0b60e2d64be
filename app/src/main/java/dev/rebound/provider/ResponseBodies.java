package dev.rebound.provider;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import okhttp3.MediaType;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;

/** Helpers for reading provider response bodies. */
public final class ResponseBodies {
    private ResponseBodies() {}

    /**
     * Reads at most {@code maxBytes} of a body as text (charset of its content type, UTF-8 by default). A longer body is
     * cut there; the rest is not read.
     */
    public static String readAtMost(ResponseBody body, long maxBytes) throws IOException {
        BufferedSource source = body.source();
        source.request(maxBytes);
        Buffer buffer = source.getBuffer();
        long size = Math.min(buffer.size(), maxBytes);
        MediaType type = body.contentType();
        Charset charset = type == null ? StandardCharsets.UTF_8 : type.charset(StandardCharsets.UTF_8);
        return buffer.readString(size, charset);
    }

    /**
     * The same body, calling {@code onData} every time bytes arrive from the network; used to feed a
     * {@link StreamWatchdog.Watch}. Closing the result closes the original.
     */
    public static ResponseBody trackingActivity(ResponseBody body, Runnable onData) {
        ForwardingSource tracked = new ForwardingSource(body.source()) {
            @Override
            public long read(Buffer sink, long byteCount) throws IOException {
                long read = super.read(sink, byteCount);
                if (read > 0) {
                    onData.run();
                }
                return read;
            }
        };
        return ResponseBody.create(Okio.buffer(tracked), body.contentType(), body.contentLength());
    }
}
