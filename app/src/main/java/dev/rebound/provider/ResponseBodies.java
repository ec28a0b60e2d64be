package dev.rebound.provider;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
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
     * Reads at most {@code maxBytes} of an error body, like {@link #readAtMost}, for quoting. A {@link #bounded} body's
     * limits do not apply to it: the read is capped anyway, and a one-line error body (a proxy's page, a flood) is no
     * stream line; what had arrived when a limit tripped is used.
     */
    public static String readErrorBody(ResponseBody body, long maxBytes) throws IOException {
        BufferedSource source = body.source();
        try {
            source.request(maxBytes);
        } catch (TooLarge capped) {
            // the bytes read before the limit tripped are in the buffer
        }
        Buffer buffer = source.getBuffer();
        long size = Math.min(buffer.size(), maxBytes);
        MediaType type = body.contentType();
        Charset charset = type == null ? StandardCharsets.UTF_8 : type.charset(StandardCharsets.UTF_8);
        return buffer.readString(size, charset);
    }

    /** Reading stopped because a response passed one of the {@code limits} settings; the message says which. */
    public static final class TooLarge extends IOException {
        TooLarge(String message) {
            super(message);
        }
    }

    /**
     * The same body, calling {@code onData} every time bytes arrive, and failing with {@link TooLarge} once more than
     * {@code maxBytes} were read (after decompression: OkHttp inflates before this sees the bytes, so a compression
     * bomb stops here) or a line runs longer than {@code maxLineBytes} without its line break. Closing the result
     * closes the original.
     */
    public static ResponseBody bounded(ResponseBody body, long maxBytes, long maxLineBytes, Runnable onData) {
        return bounded(body, maxBytes, maxLineBytes, onData, () -> {});
    }

    /** {@link #bounded(ResponseBody, long, long, Runnable)}, also calling {@code onEnd} when the body's end is read. */
    public static ResponseBody bounded(
            ResponseBody body, long maxBytes, long maxLineBytes, Runnable onData, Runnable onEnd) {
        ForwardingSource bounded = new ForwardingSource(body.source()) {
            private long total;
            private long line;

            @Override
            public long read(Buffer sink, long byteCount) throws IOException {
                long before = sink.size();
                long read = super.read(sink, byteCount);
                if (read < 0) {
                    onEnd.run();
                }
                if (read <= 0) {
                    return read;
                }
                onData.run();
                total += read;
                if (total > maxBytes) {
                    throw new TooLarge(String.format(
                            Locale.ROOT,
                            "The response is larger than limits.maxResponseBytes (%,d bytes after decompression); "
                                    + "Rebound stopped reading it. A response that large is not a normal reply; raise "
                                    + "the limit in settings.json only if this provider really sends such replies",
                            maxBytes));
                }
                long end = before + read;
                long lastBreak = Math.max(
                        lastIndexOf(sink, (byte) '\n', before, end), lastIndexOf(sink, (byte) '\r', before, end));
                line = lastBreak < 0 ? line + read : end - lastBreak - 1;
                if (line > maxLineBytes) {
                    throw new TooLarge(String.format(
                            Locale.ROOT,
                            "The server sent a stream line longer than limits.maxEventBytes (%,d bytes); Rebound "
                                    + "stopped reading. That is not a normal stream event; raise the limit in "
                                    + "settings.json only if this provider really sends events that large",
                            maxLineBytes));
                }
                return read;
            }
        };
        return ResponseBody.create(Okio.buffer(bounded), body.contentType(), body.contentLength());
    }

    /** The last index of {@code b} in {@code buffer} within [from, to), or -1. */
    private static long lastIndexOf(Buffer buffer, byte b, long from, long to) {
        long last = -1;
        for (long at = buffer.indexOf(b, from, to); at >= 0; at = buffer.indexOf(b, at + 1, to)) {
            last = at;
        }
        return last;
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
