package dev.rebound.simulator;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Answers a request with a 200, in any format: a streamed reply (server-sent events) or a whole one, shaped by the
 * faults that act on a successful response — {@code ok}, {@code delay} (already waited), {@code refusal},
 * {@code cut-after}, {@code stall} and an {@code overload} reported in the stream. The {@link ReplyFormat} says what the bytes are; this class decides which are
 * sent, and when.
 */
final class ReplyResponder {
    /** The longest a stall holds a connection before the simulator closes it. */
    static final long STALL_LIMIT_MS = 600_000;

    private final ReplyComposer composer;
    private final StreamPacer pacer;

    ReplyResponder(ReplyComposer composer, StreamPacer pacer) {
        this.composer = composer;
        this.pacer = pacer;
    }

    /**
     * Sends the response, blocking until it is sent (or the stall ends).
     *
     * @param clientGone released when the client closes the connection or the server stops; ends a stall
     */
    void respond(
            HttpExchange exchange,
            ReplyFormat format,
            ReplyRequest request,
            Fault fault,
            double tokensPerSecond,
            CountDownLatch clientGone)
            throws IOException, InterruptedException {
        if (request.streamed()) {
            stream(exchange, format, request, fault, tokensPerSecond, clientGone);
        } else {
            whole(exchange, format, request, fault, clientGone);
        }
    }

    private void stream(
            HttpExchange exchange,
            ReplyFormat format,
            ReplyRequest request,
            Fault fault,
            double rate,
            CountDownLatch clientGone)
            throws IOException, InterruptedException {
        OutputStream out = open(exchange, format.headers(true), 0);
        if (fault instanceof Fault.Overload) {
            frames(out, format.overloaded());
            return;
        }
        if (fault instanceof Fault.Refusal) {
            frames(out, format.refusalStart());
            pacer.send(Tokens.split(format.refusalText()), rate, text -> frame(out, format.refusal(text)));
            frames(out, format.refusalEnd());
            return;
        }
        frames(out, format.start());
        List<String> tokens = composer.reply(request.prompt());
        switch (fault) {
            case Fault.CutAfter cut ->
                pacer.send(Tokens.firstChars(tokens, cut.chars()), rate, text -> frame(out, format.text(text)));
            case Fault.Stall stall -> {
                pacer.send(Tokens.firstChars(tokens, stall.afterChars()), rate, text -> frame(out, format.text(text)));
                clientGone.await(STALL_LIMIT_MS, TimeUnit.MILLISECONDS);
            }
            default -> {
                pacer.send(tokens, rate, text -> frame(out, format.text(text)));
                frames(out, format.end(String.join("", tokens), tokens.size()));
            }
        }
    }

    /** A request that did not ask to stream: the whole reply as one JSON object. */
    private void whole(
            HttpExchange exchange, ReplyFormat format, ReplyRequest request, Fault fault, CountDownLatch clientGone)
            throws IOException, InterruptedException {
        List<String> tokens = composer.reply(request.prompt());
        String json = fault instanceof Fault.Refusal
                ? format.wholeRefusal()
                : format.whole(String.join("", tokens), tokens.size());
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        OutputStream out = open(exchange, format.headers(false), bytes.length);
        switch (fault) {
            case Fault.CutAfter cut -> out.write(bytes, 0, Math.min(bytes.length, cut.chars()));
            case Fault.Stall stall -> {
                out.write(bytes, 0, Math.min(bytes.length, stall.afterChars()));
                out.flush();
                clientGone.await(STALL_LIMIT_MS, TimeUnit.MILLISECONDS);
            }
            default -> out.write(bytes);
        }
        out.flush();
    }

    private static OutputStream open(HttpExchange exchange, Map<String, String> headers, long length)
            throws IOException {
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        exchange.sendResponseHeaders(200, length);
        return exchange.getResponseBody();
    }

    private static void frames(OutputStream out, List<String> frames) throws IOException {
        for (String frame : frames) {
            frame(out, frame);
        }
    }

    private static void frame(OutputStream out, String frame) throws IOException {
        out.write(frame.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
