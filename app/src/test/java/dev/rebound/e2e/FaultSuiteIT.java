package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The network rows of the fault suite of issue 18 (docs/reliability.md lists every probe and where it is tested).
 * One real Rebound process over RPC, one loopback {@link FaultServer} misbehaving in a different way per row, retries
 * off so that each row is one attempt, short timeouts so that no row waits long. Every row must end its turn with the
 * expected outcome ({@code stop}, {@code aborted} or a failure kind), the next row must be answered (no fault wedges
 * the process), and the process must exit 0 at end of input. Secrets are configured throughout — two keys of two
 * providers, a secret header, a password in the base URL, a secret query value — and the hostile rows echo them; the
 * bundled journal plugin and a recording plugin (dumping every event it receives whole) are loaded. Afterwards
 * {@link SecretSweep} finds no byte of any of them anywhere.
 */
class FaultSuiteIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    static final String KEY = "sk-canary-7d41c0ffee5e1f2a9b3c";
    static final String SPARE_KEY = "sk-spare-canary-51ab2e90d7c3";
    static final String HEADER_SECRET = "hdr-canary-0b1e4f2d6a8c";
    static final String URL_PASSWORD = "pw-canary-93f0aa17";
    static final String QUERY_SECRET = "q-canary-c4d2e8f61b07";
    static final List<String> SECRETS = List.of(KEY, SPARE_KEY, HEADER_SECRET, URL_PASSWORD, QUERY_SECRET);

    @TempDir
    Path configDir;

    private FaultServer server;
    private ReboundProcess rebound;

    /**
     * One row: what the server does for the row's request(s), how the turn must end ({@code stop}, {@code aborted} or
     * a failure kind), the reply text it must hold (null: any), a pause before the prompt and an abort after it (ms, 0:
     * none), how many requests the server must see (-1: not checked; each must be a POST) and at most how many bytes
     * the server may have written before the client stopped reading (-1: not checked).
     */
    record Row(
            String name,
            List<FaultServer.Handler> handlers,
            String outcome,
            String text,
            long pauseBeforeMs,
            long abortAfterMs,
            int requests,
            long maxBytesSent) {
        Row(String name, String outcome, FaultServer.Handler... handlers) {
            this(name, List.of(handlers), outcome, null, 0, 0, -1, -1);
        }

        Row text(String expected) {
            return new Row(name, handlers, outcome, expected, pauseBeforeMs, abortAfterMs, requests, maxBytesSent);
        }

        Row pauseBefore(long ms) {
            return new Row(name, handlers, outcome, text, ms, abortAfterMs, requests, maxBytesSent);
        }

        Row abortAfter(long ms) {
            return new Row(name, handlers, outcome, text, pauseBeforeMs, ms, requests, maxBytesSent);
        }

        Row requests(int expected) {
            return new Row(name, handlers, outcome, text, pauseBeforeMs, abortAfterMs, expected, maxBytesSent);
        }

        Row bytesSentAtMost(long bytes) {
            return new Row(name, handlers, outcome, text, pauseBeforeMs, abortAfterMs, requests, bytes);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final String STREAM = FaultServer.head(200, "text/event-stream", -1);

    /** An SSE reply whose raw bytes are cut at these offsets into separate writes 20 ms apart. */
    private static FaultServer.Handler cutAt(byte[] body, int... cuts) {
        List<byte[]> pieces = new ArrayList<>();
        int from = 0;
        for (int cut : cuts) {
            pieces.add(Arrays.copyOfRange(body, from, cut));
            from = cut;
        }
        pieces.add(Arrays.copyOfRange(body, from, body.length));
        return FaultServer.pieces(STREAM, 20, pieces.toArray(byte[][]::new));
    }

    private static FaultServer.Handler utf8Split() {
        byte[] body = utf8(Sse.chunk("café ☕ 𝄞") + Sse.finish());
        String text = new String(body, StandardCharsets.UTF_8);
        int e = utf8(text.substring(0, text.indexOf('é'))).length;
        int cup = utf8(text.substring(0, text.indexOf('☕'))).length;
        int clef = utf8(text.substring(0, text.indexOf("𝄞"))).length;
        return cutAt(body, e + 1, cup + 1, cup + 2, clef + 1, clef + 3);
    }

    private static FaultServer.Handler invalidUtf8() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(utf8("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"bad "));
        body.writeBytes(new byte[] {(byte) 0xC3}); // a lead byte cut off by the end of the write…
        byte[] first = body.toByteArray();
        byte[] second = utf8("\"}}]}\n\n" + Sse.finish()); // …and never continued
        byte[] third = new byte[] {(byte) 0xFF, (byte) 0xFE, '\n', '\n'};
        return FaultServer.pieces(STREAM, 20, first, second, third);
    }

    /** Every secret, each cut between two stream events and between two writes. */
    private static FaultServer.Handler echoSecretsInAStream() {
        StringBuilder events = new StringBuilder();
        for (String secret : SECRETS) {
            int half = secret.length() / 2;
            events.append(Sse.chunk(" " + secret.substring(0, half))).append(Sse.chunk(secret.substring(half)));
        }
        byte[] body = utf8(events + Sse.finish());
        String text = new String(body, StandardCharsets.UTF_8);
        return cutAt(body, text.indexOf(KEY.substring(3, 9)) + 3, text.indexOf(HEADER_SECRET.substring(2, 6)) + 1);
    }

    /** An error body quoting the whole request (key, header, query) and every secret the server could know. */
    private static FaultServer.Handler echoSecretsInAnError() {
        return x -> FaultServer.status(
                        401,
                        "application/json",
                        "{\"error\":{\"message\":"
                                + Sse.quote("Incorrect API key provided. You sent:\n" + x.dump()
                                        + String.join(" ", SECRETS))
                                + "}}")
                .serve(x);
    }

    private static FaultServer.Handler redirectTo(int status, String path) {
        return x -> x.write("HTTP/1.1 " + status + " Redirect\r\nLocation: " + path + "\r\nContent-Length: 0\r\n\r\n");
    }

    private List<Row> rows() throws IOException {
        String reply = Sse.chunk("fine") + Sse.finish();
        StringBuilder longReply = new StringBuilder();
        String piece = "x".repeat(999) + " ";
        for (int i = 0; i < 150; i++) {
            longReply.append(Sse.chunk(piece));
        }
        byte[] slow = utf8(Sse.chunk("slow") + Sse.finish());
        byte[][] oneByteEach = new byte[slow.length][];
        for (int i = 0; i < slow.length; i++) {
            oneByteEach[i] = new byte[] {slow[i]};
        }
        return List.of(
                new Row("a reply", "stop", FaultServer.sse(reply)).text("fine"),
                new Row("never answers", "timeout", FaultServer.Exchange::awaitClientClose),
                new Row("stops after the headers", "timeout", x -> {
                    x.write(STREAM);
                    x.awaitClientClose();
                }),
                new Row("closes after the headers", "truncated", x -> {
                    x.write(STREAM);
                    x.close = true;
                }),
                new Row("closes mid-stream", "truncated", x -> {
                    x.write(STREAM + Sse.chunk("half a rep"));
                    x.close = true;
                }),
                new Row("one byte a second", "aborted", FaultServer.pieces(STREAM, 1000, oneByteEach)).abortAfter(2500),
                new Row("a reply after the slow one", "stop", FaultServer.sse(reply)).text("fine"),
                new Row(
                        "malformed SSE",
                        "protocol",
                        FaultServer.sse(
                                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}\n\n" + Sse.finish())),
                new Row("UTF-8 characters cut between writes", "stop", utf8Split()).text("café ☕ 𝄞"),
                new Row("invalid UTF-8", "stop", invalidUtf8()).text("bad \uFFFD"),
                new Row(
                        "HTML with status 200",
                        "protocol",
                        FaultServer.status(200, "text/html", "<html><body>Please log in</body></html>")),
                new Row(
                        "JSON with status 200",
                        "protocol",
                        FaultServer.status(200, "application/json", "{\"status\":\"ok\",\"queue\":[]}")),
                new Row("a 200 MB error body", "http", FaultServer.huge(500, "text/plain", 200L * 1024 * 1024, (byte)
                                'e'))
                        .bytesSentAtMost(32L << 20),
                new Row("a reply on a connection the server then closes while idle", "stop", x -> {
                            FaultServer.sse(reply).serve(x);
                            x.idleCloseMs = 200;
                        })
                        .text("fine")
                        .requests(1),
                new Row("the next prompt after that close", "stop", FaultServer.sse(reply))
                        .text("fine")
                        .pauseBefore(700)
                        .requests(1),
                new Row("a 307 redirect of the prompt", "protocol", redirectTo(307, "/v2/chat/completions"))
                        .requests(1),
                new Row("a 308 redirect to itself", "protocol", redirectTo(308, "/v1/chat/completions")).requests(1),
                new Row(
                                "a 302 redirect loop: answered at the first 302, never followed as a GET",
                                "protocol",
                                java.util.Collections.nCopies(30, redirectTo(302, "/v1/loop"))
                                        .toArray(FaultServer.Handler[]::new))
                        .requests(1),
                new Row(
                        "an oversized header",
                        "protocol",
                        x -> x.write("HTTP/1.1 200 OK\r\nX-Big: " + "h".repeat(300 * 1024)
                                + "\r\nContent-Type: text/event-stream\r\nContent-Length: " + reply.length()
                                + "\r\n\r\n" + reply)),
                new Row(
                        "an oversized SSE line",
                        "too_large",
                        FaultServer.sse(Sse.chunk("y".repeat(100 * 1024)) + Sse.finish())),
                new Row("a reply over limits.maxReplyChars", "too_large", FaultServer.sse(longReply + Sse.finish())),
                new Row(
                                "a body over limits.maxResponseBytes",
                                "too_large",
                                FaultServer.huge(200, "text/event-stream", 64L << 20, (byte) '\n'))
                        .bytesSentAtMost(24L << 20),
                // 16 GiB inflated, 16 MB on the wire; limits.maxResponseBytes is 1 MiB here, about 1 KB of the wire.
                new Row("a gzip bomb", "too_large", FaultServer.gzipBomb(16L << 30)).bytesSentAtMost(8L << 20),
                new Row("an error body echoing every secret", "http", echoSecretsInAnError()),
                new Row("a stream echoing every secret, cut", "stop", echoSecretsInAStream()),
                new Row("a reply after all that", "stop", FaultServer.sse(reply)).text("fine"));
    }

    @AfterEach
    void stop() throws IOException {
        if (rebound != null) {
            rebound.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static String type(JsonNode frame) {
        return frame.path("type").asText();
    }

    /** Settings and credentials with every kind of secret, the journal and recording plugins installed. */
    static void configure(Path configDir, String baseUrl, String extra) throws IOException {
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "local/test-model",
                  "providers": {
                    "local": { "api": "openai-completions", "baseUrl": "%s", %s,
                               "models": [ { "id": "test-model" } ] },
                    "spare": { "api": "openai-completions", "baseUrl": "%s", "models": [ { "id": "spare-model" } ] } },
                  "plugins": { "recording": { "dumpAll": true } },
                  %s }
                """.formatted(
                        SecretSweep.baseUrlWithPassword(baseUrl), SecretSweep.PROVIDER_SECRETS, baseUrl, extra));
        SecretSweep.writeCredentials(configDir, "local", "canary", KEY, "spare", "spare", SPARE_KEY);
        Path plugins = Files.createDirectories(configDir.resolve("plugins"));
        PluginArchiveBuilder.of("recording").zip(plugins, "recording.zip");
        Path bundled = Path.of(System.getProperty("rebound.bundledPlugins", "target/bundled-plugins"));
        Files.copy(bundled.resolve("retry-journal-plugin.zip"), plugins.resolve("retry-journal-plugin.zip"));
    }

    @Test
    void everyMisbehaviourEndsItsTurnAsExpectedNothingWedgesAndNoSecretIsAnywhere() throws Exception {
        server = new FaultServer();
        configure(configDir, server.url("/v1"), """
                "retry": { "enabled": false },
                "timeouts": { "connectMs": 2000, "firstByteMs": 1500, "idleMs": 1500 },
                "limits": { "maxResponseBytes": 1048576, "maxEventBytes": 65536, "maxReplyChars": 100000 }""");
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        assertThat(type(rebound.next(WAIT))).isEqualTo("ready");

        List<String> outcomes = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        for (Row row : rows()) {
            server.clearQueue();
            row.handlers().forEach(server::enqueue);
            Thread.sleep(row.pauseBeforeMs());
            int requestsBefore = server.requests.get();
            int linesBefore = server.requestLines.size();
            long bytesBefore = server.bytesSent.get();
            AtomicLong abortSent = new AtomicLong();
            long started = System.nanoTime();
            List<JsonNode> frames;
            try {
                if (row.abortAfterMs() > 0) {
                    Thread.ofVirtual().start(() -> {
                        try {
                            Thread.sleep(row.abortAfterMs());
                            abortSent.set(System.nanoTime());
                            rebound.send("{\"type\":\"abort\"}");
                        } catch (IOException | InterruptedException ignored) {
                            // the turn's check below fails instead
                        }
                    });
                }
                frames = rebound.wholeTurn(row.name(), WAIT);
            } catch (AssertionError e) {
                throw new AssertionError(
                        "row '" + row.name() + "': " + e.getMessage() + "\nlog:\n"
                                + Files.readString(configDir.resolve("logs/rebound.log")),
                        e);
            }
            long ended = System.nanoTime();
            long ms = (ended - started) / 1_000_000;
            if (row.abortAfterMs() > 0) {
                assertThat(abortSent.get())
                        .as("row '%s': the abort was sent", row.name())
                        .isPositive();
                assertThat((ended - abortSent.get()) / 1_000_000)
                        .as("row '%s': ms from the abort to the turn's end", row.name())
                        .isLessThan(1_500);
            }
            if (row.requests() >= 0) {
                assertThat(server.requests.get() - requestsBefore)
                        .as("row '%s': requests the server saw (%s)", row.name(), server.requestLines)
                        .isEqualTo(row.requests());
                assertThat(server.requestLines.subList(linesBefore, server.requestLines.size()))
                        .as("row '%s': the prompt's POST only, no follow-up request", row.name())
                        .allMatch(line -> line.startsWith("POST "));
            }
            if (row.maxBytesSent() >= 0) {
                assertThat(server.awaitIdle(Duration.ofSeconds(5)))
                        .as("row '%s': the server's writes ended (the client closed the connection)", row.name())
                        .isTrue();
                assertThat(server.bytesSent.get() - bytesBefore)
                        .as("row '%s': bytes the server could write before the client stopped reading", row.name())
                        .isLessThanOrEqualTo(row.maxBytesSent());
            }
            JsonNode reply = frames.stream()
                    .filter(f -> type(f).equals("message_end"))
                    .reduce((a, b) -> b)
                    .orElseThrow()
                    .path("message");
            String outcome = reply.path("stopReason").asText().equals("error")
                    ? reply.path("failure").path("kind").asText()
                    : reply.path("stopReason").asText();
            String text = reply.path("content").path(0).path("text").asText();
            outcomes.add(row.name() + ": " + outcome + (row.text() == null ? "" : " \"" + text + "\""));
            messages.add(row.name() + " (" + ms + " ms): "
                    + reply.path("errorMessage").asText());
            expected.add(row.name() + ": " + row.outcome() + (row.text() == null ? "" : " \"" + row.text() + "\""));
            assertThat(ms).as("row '%s' took %d ms: %s", row.name(), ms, reply).isLessThan(10_000);
        }
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();

        assertThat(outcomes)
                .as("each row's outcome; the error texts were:\n%s", String.join("\n", messages))
                .containsExactlyElementsOf(expected);
        assertThat(messages)
                .as("the flood of an error body is quoted from its first 64 KiB, not called unreadable")
                .anySatisfy(m -> assertThat(m)
                        .startsWith("a 200 MB error body")
                        .contains("500 Internal Server Error: eeee")
                        .doesNotContain("could not be read"));
        assertThat(rebound.drain())
                .as("stdout holds protocol frames only, although the recording plugin prints to System.out")
                .noneMatch(f -> type(f).equals("NOT_JSON"));
        assertThat(rebound.stderr()).contains("recording plugin saw agent_end");
        assertThat(configDir.resolve("plugin-data/recording/everything.txt")).isNotEmptyFile();
        assertThat(configDir.resolve("plugin-data/recording/settings-seen.txt")).isNotEmptyFile();
        SecretSweep.assertNowhere(SECRETS, rebound, configDir);
    }

    /**
     * Defect 2's probe as it was found: the real jar under {@code -Xmx256m}, the default limits (docs/settings.md:
     * 2,000,000 reply characters, 8 MiB lines, 256 MiB decompressed) and retries on, against a 100 MB streamed reply, a
     * 100 MB single stream line and a gzip bomb of 1 GiB (about 1 MB on the wire), each generated while it is sent.
     * Each turn ends {@code too_large} without a retry, the next prompt is answered, nothing runs out of memory, and
     * the process exits 0 at end of input.
     */
    @Test
    void atTheDefaultLimitsIn256MiBOfHeapFloodsEndTooLargeUnretriedAndThePromptAfterIsAnswered() throws Exception {
        server = new FaultServer();
        configure(configDir, server.url("/v1"), "\"retry\": { \"enabled\": true }");
        rebound = ReboundProcess.start(List.of("-Xmx256m"), true, configDir, Map.of(), "--mode", "rpc", "--no-plugins");
        assertThat(type(rebound.next(WAIT))).isEqualTo("ready");
        Map<String, FaultServer.Handler> floods = new java.util.LinkedHashMap<>();
        floods.put("a 100 MB streamed reply", FaultServer.endlessReply(100L << 20));
        floods.put("a 100 MB single stream line", FaultServer.endlessLine(100L << 20));
        floods.put("a gzip bomb, 1 GiB inflated", FaultServer.gzipBomb(1L << 30));
        String reply = Sse.chunk("fine") + Sse.finish();
        for (Map.Entry<String, FaultServer.Handler> flood : floods.entrySet()) {
            server.clearQueue();
            server.enqueue(flood.getValue(), FaultServer.sse(reply));
            int requestsBefore = server.requests.get();
            List<JsonNode> turn = rebound.wholeTurn(flood.getKey(), WAIT);
            JsonNode end = lastMessage(turn);
            assertThat(end.path("failure").path("kind").asText())
                    .as("%s: %s", flood.getKey(), end.path("errorMessage").asText())
                    .isEqualTo("too_large");
            assertThat(turn).as("%s: not retried", flood.getKey()).noneMatch(f -> type(f).equals("auto_retry_start"));
            assertThat(server.requests.get() - requestsBefore)
                    .as("%s: one request", flood.getKey())
                    .isEqualTo(1);
            JsonNode next = lastMessage(rebound.wholeTurn("after " + flood.getKey(), WAIT));
            assertThat(next.path("content").path(0).path("text").asText())
                    .as("the prompt after %s is answered", flood.getKey())
                    .isEqualTo("fine");
        }
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.stderr()).doesNotContain("OutOfMemoryError");
        SecretSweep.assertNowhere(SECRETS, rebound, configDir);
    }

    private static JsonNode lastMessage(List<JsonNode> turn) {
        return turn.stream()
                .filter(f -> type(f).equals("message_end"))
                .reduce((a, b) -> b)
                .orElseThrow()
                .path("message");
    }
}
