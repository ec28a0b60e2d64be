package dev.rebound.e2e;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback HTTP/1.1 server written on plain sockets for the fault suite, so that every byte and every pause is the
 * row's: headers that never come, a body at one byte a second, a multi-byte character cut between two writes, a
 * 200 MB body streamed from a small buffer, a connection closed while idle. Each request takes the next queued
 * {@link Handler} (or the fallback, a short reply).
 *
 * <p>Not MockWebServer, for one reason found while building the suite: MockWebServer's queue applies a queued
 * response's {@code throttleBody} to <em>reading the request</em> too (it peeks at the queue head before reading), so a
 * throttled row made the client's request body trickle in, the client timed out (rightly), the response stayed at the
 * head of the queue and every later request was read at the throttled rate: each later row "timed out" although
 * Rebound was fine.
 */
final class FaultServer implements AutoCloseable {
    /** What one request gets. */
    @FunctionalInterface
    interface Handler {
        void serve(Exchange exchange) throws IOException, InterruptedException;
    }

    /** One request and the connection to answer it on. */
    static final class Exchange {
        final String requestLine;
        final Map<String, String> headers;
        final byte[] body;
        final Socket socket;
        final OutputStream out;
        /** Set by a handler: close the connection after this answer. */
        boolean close;
        /** Set by a handler: close the connection when no next request arrives within this many ms (0: wait). */
        int idleCloseMs;

        Exchange(String requestLine, Map<String, String> headers, byte[] body, Socket socket, OutputStream out) {
            this.requestLine = requestLine;
            this.headers = headers;
            this.body = body;
            this.socket = socket;
            this.out = out;
        }

        void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        /** Blocks until the client closes the connection (or 60 s pass). */
        void awaitClientClose() throws IOException {
            socket.setSoTimeout(60_000);
            try {
                while (socket.getInputStream().read() >= 0) {
                    // discard
                }
            } catch (IOException ignored) {
                // closed or reset: what we waited for
            }
            close = true;
        }

        String dump() {
            StringBuilder all = new StringBuilder(requestLine).append('\n');
            headers.forEach((k, v) -> all.append(k).append(": ").append(v).append('\n'));
            return all.toString();
        }
    }

    private final ServerSocket socket;
    private final BlockingQueue<Handler> queue = new LinkedBlockingQueue<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger connections = new AtomicInteger();
    final AtomicLong bytesSent = new AtomicLong();
    final List<String> requestLines = new CopyOnWriteArrayList<>();
    /** Handlers still running (writing an answer, or waiting inside one). */
    private final AtomicInteger busy = new AtomicInteger();

    private volatile Handler fallback = sse(Sse.chunk("ok") + Sse.finish());
    private final Thread acceptor;

    FaultServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofVirtual().start(this::acceptLoop);
    }

    String url(String path) {
        return "http://127.0.0.1:" + socket.getLocalPort() + path;
    }

    int port() {
        return socket.getLocalPort();
    }

    FaultServer enqueue(Handler... handlers) {
        queue.addAll(List.of(handlers));
        return this;
    }

    void fallback(Handler handler) {
        this.fallback = handler;
    }

    /** Drops handlers a row did not use (a redirect loop queues more than the client follows). */
    void clearQueue() {
        queue.clear();
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                connections.incrementAndGet();
                open.add(s);
                Thread.ofVirtual().start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = new CountingOutput(s.getOutputStream(), bytesSent);
            int idleCloseMs = 0;
            while (true) {
                s.setSoTimeout(idleCloseMs);
                String requestLine;
                try {
                    requestLine = line(in);
                } catch (SocketTimeoutException idle) {
                    return; // the server closes an idle kept-alive connection, as Node and proxies do
                }
                if (requestLine == null || requestLine.isEmpty()) {
                    return;
                }
                s.setSoTimeout(10_000);
                Map<String, String> headers = new LinkedHashMap<>();
                String header;
                while ((header = line(in)) != null && !header.isEmpty()) {
                    int colon = header.indexOf(':');
                    headers.put(
                            header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            header.substring(colon + 1).trim());
                }
                byte[] body = body(in, headers);
                requests.incrementAndGet();
                requestLines.add(requestLine);
                Handler handler = queue.poll();
                Exchange x = new Exchange(requestLine, headers, body, s, out);
                busy.incrementAndGet();
                try {
                    (handler == null ? fallback : handler).serve(x);
                    out.flush();
                } finally {
                    busy.decrementAndGet();
                }
                if (x.close) {
                    return;
                }
                idleCloseMs = x.idleCloseMs;
            }
        } catch (IOException | InterruptedException e) {
            // the client went away: normal for most rows
        } finally {
            open.remove(s);
        }
    }

    private static byte[] body(InputStream in, Map<String, String> headers) throws IOException {
        String length = headers.get("content-length");
        if (length != null) {
            return in.readNBytes(Integer.parseInt(length));
        }
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            while (true) {
                int size = Integer.parseInt(line(in).split(";")[0].trim(), 16);
                if (size == 0) {
                    while (!line(in).isEmpty()) {
                        // trailers
                    }
                    return all.toByteArray();
                }
                all.write(in.readNBytes(size));
                line(in);
            }
        }
        return new byte[0];
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * Waits until no handler is running: every answer is written, or its writes failed because the client closed the
     * connection. False when one still runs after the timeout.
     */
    boolean awaitIdle(java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (busy.get() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : open) {
            s.close();
        }
        acceptor.interrupt();
    }

    /** A whole streamed reply in one write, with its length. */
    static Handler sse(String body) {
        return x -> x.write(head(200, "text/event-stream", body.getBytes(StandardCharsets.UTF_8).length) + body);
    }

    /** A status line and headers; {@code length} -1 for a chunk-less body that ends when the connection closes. */
    static String head(int status, String contentType, long length) {
        return "HTTP/1.1 " + status + " X\r\nContent-Type: " + contentType + "\r\n"
                + (length >= 0 ? "Content-Length: " + length + "\r\n" : "Connection: close\r\n") + "\r\n";
    }

    /** A whole answer of this status and type. */
    static Handler status(int status, String contentType, String body) {
        return x -> x.write(head(status, contentType, body.getBytes(StandardCharsets.UTF_8).length) + body);
    }

    /** A body of this many bytes streamed from a 64 KiB buffer, until done or the client closes. */
    static Handler huge(int status, String contentType, long length, byte fill) {
        return x -> {
            x.write(head(status, contentType, length));
            byte[] block = new byte[64 * 1024];
            java.util.Arrays.fill(block, fill);
            for (long sent = 0; sent < length; sent += block.length) {
                x.out.write(block, 0, (int) Math.min(block.length, length - sent));
            }
            x.out.flush();
        };
    }

    /**
     * A gzip-encoded event stream of {@code inflatedBytes} newlines, generated while it is written (never held whole):
     * the same deflate block, 1 MiB of newlines compressed with a full flush (so every block after the first is the same
     * bytes, about 1 KiB), written again and again, then a valid gzip trailer. About 1,000 times smaller on the wire.
     * No Content-Length: the body ends when the connection closes.
     */
    static Handler gzipBomb(long inflatedBytes) {
        byte[] newlines = new byte[1 << 20];
        java.util.Arrays.fill(newlines, (byte) '\n');
        java.util.zip.Deflater deflater = new java.util.zip.Deflater(java.util.zip.Deflater.BEST_COMPRESSION, true);
        byte[] first = fullFlush(deflater, newlines);
        byte[] block = fullFlush(deflater, newlines);
        if (!java.util.Arrays.equals(block, fullFlush(deflater, newlines))) {
            throw new IllegalStateException("the deflater's full-flush blocks differ; the bomb cannot repeat one");
        }
        deflater.finish();
        byte[] end = new byte[64];
        int endLength = deflater.deflate(end);
        deflater.end();
        return x -> {
            x.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n"
                    + "Connection: close\r\n\r\n");
            x.out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            long blocks = inflatedBytes / newlines.length;
            for (long i = 0; i < blocks; i++) {
                x.out.write(i == 0 ? first : block);
                crc.update(newlines);
            }
            x.out.write(end, 0, endLength);
            long size = blocks * newlines.length;
            byte[] trailer = new byte[8];
            for (int i = 0; i < 4; i++) {
                trailer[i] = (byte) (crc.getValue() >>> (8 * i));
                trailer[4 + i] = (byte) (size >>> (8 * i));
            }
            x.out.write(trailer);
            x.close = true;
        };
    }

    private static byte[] fullFlush(java.util.zip.Deflater deflater, byte[] input) {
        deflater.setInput(input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        int n;
        do {
            n = deflater.deflate(buffer, 0, buffer.length, java.util.zip.Deflater.FULL_FLUSH);
            out.write(buffer, 0, n);
        } while (n == buffer.length);
        return out.toByteArray();
    }

    /**
     * A streamed reply of about {@code bytes} bytes of text events (1,000 characters each), generated while it is
     * written; no Content-Length.
     */
    static Handler endlessReply(long bytes) {
        byte[] event = Sse.chunk("z".repeat(999) + " ").getBytes(StandardCharsets.UTF_8);
        return x -> {
            x.write(head(200, "text/event-stream", -1));
            for (long sent = 0; sent < bytes; sent += event.length) {
                x.out.write(event);
            }
            x.write(Sse.finish());
            x.close = true;
        };
    }

    /** One stream event whose single line is about {@code bytes} bytes long, generated while it is written. */
    static Handler endlessLine(long bytes) {
        byte[] block = new byte[64 * 1024];
        java.util.Arrays.fill(block, (byte) 'y');
        return x -> {
            x.write(head(200, "text/event-stream", -1) + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"");
            for (long sent = 0; sent < bytes; sent += block.length) {
                x.out.write(block);
            }
            x.write("\"}}]}\n\n" + Sse.finish());
            x.close = true;
        };
    }

    /** Pieces written one at a time, flushed, with a pause between, the connection closed at the end. */
    static Handler pieces(String head, long pauseMs, byte[]... pieces) {
        return x -> {
            x.write(head);
            for (byte[] piece : pieces) {
                Thread.sleep(pauseMs);
                x.write(piece);
            }
            x.close = true;
        };
    }

    private static final class CountingOutput extends OutputStream {
        private final OutputStream out;
        private final AtomicLong count;

        CountingOutput(OutputStream out, AtomicLong count) {
            this.out = out;
            this.count = count;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count.incrementAndGet();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count.addAndGet(len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }
    }
}
