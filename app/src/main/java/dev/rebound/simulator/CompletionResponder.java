package dev.rebound.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Answers a completion request with a 200: a streamed reply (Server-Sent Events) or a whole {@code chat.completion},
 * shaped by the faults that act on a successful response — {@code ok}, {@code delay} (already waited), {@code refusal},
 * {@code cut-after} and {@code stall}.
 */
final class CompletionResponder {
    /** The longest a stall holds a connection before the simulator closes it. */
    static final long STALL_LIMIT_MS = 600_000;

    private static final String REFUSAL = "I'm sorry, but I can't help with that request.";

    private final ObjectMapper mapper;
    private final ReplyComposer composer;
    private final StreamPacer pacer;
    private final Clock clock;

    CompletionResponder(ObjectMapper mapper, ReplyComposer composer, StreamPacer pacer, Clock clock) {
        this.mapper = mapper;
        this.composer = composer;
        this.pacer = pacer;
        this.clock = clock;
    }

    /**
     * Sends the response, blocking until it is sent (or the stall ends).
     *
     * @param clientGone released when the client closes the connection or the server stops; ends a stall
     */
    void respond(
            HttpExchange exchange,
            CompletionRequest request,
            Fault fault,
            double tokensPerSecond,
            CountDownLatch clientGone)
            throws IOException, InterruptedException {
        if (request.streamed()) {
            stream(exchange, request, fault, tokensPerSecond, clientGone);
        } else {
            whole(exchange, request, fault, clientGone);
        }
    }

    private void stream(
            HttpExchange exchange, CompletionRequest request, Fault fault, double rate, CountDownLatch clientGone)
            throws IOException, InterruptedException {
        CompletionChunks chunks = chunks(request);
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.getResponseHeaders().set("x-request-id", request.requestId());
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        event(out, chunks.role());
        if (fault instanceof Fault.Refusal) {
            pacer.send(Tokens.split(REFUSAL), rate, text -> event(out, chunks.refusal(text)));
            finish(out, chunks, request, Tokens.count(REFUSAL));
            return;
        }
        List<String> tokens = composer.reply(request.prompt());
        switch (fault) {
            case Fault.CutAfter cut ->
                pacer.send(Tokens.firstChars(tokens, cut.chars()), rate, text -> event(out, chunks.content(text)));
            case Fault.Stall stall -> {
                pacer.send(
                        Tokens.firstChars(tokens, stall.afterChars()), rate, text -> event(out, chunks.content(text)));
                clientGone.await(STALL_LIMIT_MS, TimeUnit.MILLISECONDS);
            }
            default -> {
                pacer.send(tokens, rate, text -> event(out, chunks.content(text)));
                finish(out, chunks, request, tokens.size());
            }
        }
    }

    private void finish(OutputStream out, CompletionChunks chunks, CompletionRequest request, int completionTokens)
            throws IOException {
        event(out, chunks.finish("stop"));
        if (request.includeUsage()) {
            event(out, chunks.usage(request.promptTokens(), completionTokens));
        }
        event(out, "[DONE]");
    }

    /** A request without {@code stream: true}: the whole completion as one JSON object. */
    private void whole(HttpExchange exchange, CompletionRequest request, Fault fault, CountDownLatch clientGone)
            throws IOException, InterruptedException {
        CompletionChunks chunks = chunks(request);
        List<String> tokens = composer.reply(request.prompt());
        String content = String.join("", tokens);
        String json = fault instanceof Fault.Refusal
                ? chunks.whole(null, REFUSAL, request.promptTokens(), Tokens.count(REFUSAL))
                : chunks.whole(content, null, request.promptTokens(), tokens.size());
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("x-request-id", request.requestId());
        exchange.sendResponseHeaders(200, bytes.length);
        OutputStream out = exchange.getResponseBody();
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

    private CompletionChunks chunks(CompletionRequest request) {
        return new CompletionChunks(
                mapper, "chatcmpl-sim-" + request.number(), clock.instant().getEpochSecond(), request.model());
    }

    private static void event(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
