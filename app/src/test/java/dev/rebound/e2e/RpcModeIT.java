package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RPC mode end to end: the real jar as a child process, talking to an OpenAI-compatible server on loopback. */
class RpcModeIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path configDir;

    private MockWebServer server;
    private ReboundProcess rebound;

    @BeforeEach
    void startServer() throws IOException {
        server = new MockWebServer();
        server.start();
    }

    @AfterEach
    void stop() throws IOException {
        if (rebound != null) {
            rebound.close();
        }
        server.close();
    }

    private void writeSettings(String extra) throws IOException {
        Files.writeString(configDir.resolve("settings.json"), """
                {
                  "model": "local/test-model",
                  "providers": {
                    "local": { "api": "openai-completions", "baseUrl": "%s",
                               "models": [ { "id": "test-model", "contextWindow": 8192 }, { "id": "other" } ] }
                  }%s
                }
                """.formatted(
                        server.url("/v1").toString(), extra));
    }

    /** The settings of {@link #writeSettings}, with every canary secret in place, and the canary key. */
    private void writeSettingsWithSecrets() throws IOException {
        Files.writeString(configDir.resolve("settings.json"), """
                {
                  "model": "local/test-model",
                  "providers": {
                    "local": { "api": "openai-completions", "baseUrl": "%s", %s,
                               "models": [ { "id": "test-model", "contextWindow": 8192 }, { "id": "other" } ] }
                  }
                }
                """.formatted(
                        SecretSweep.baseUrlWithPassword(server.url("/v1").toString()), SecretSweep.PROVIDER_SECRETS));
        SecretSweep.writeCredentials(configDir, "local", "canary", FaultSuiteIT.KEY);
    }

    private static final List<String> SECRETS =
            List.of(FaultSuiteIT.KEY, FaultSuiteIT.HEADER_SECRET, FaultSuiteIT.URL_PASSWORD, FaultSuiteIT.QUERY_SECRET);

    private static String type(JsonNode frame) {
        return frame.path("type").asText();
    }

    @Test
    void aPipedPromptStreamsTheReplyAndExitsZeroAtEndOfInput() throws Exception {
        writeSettings("");
        server.enqueue(Sse.reply("Hel", "lo", " there"));
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.send("{\"id\":\"p1\",\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.closeStdin();

        assertThat(rebound.next(WAIT).toString()).isEqualTo("{\"type\":\"ready\",\"protocolVersion\":1}");
        JsonNode response = rebound.next(WAIT);
        assertThat(response.toString())
                .isEqualTo("{\"id\":\"p1\",\"type\":\"response\",\"command\":\"prompt\",\"success\":true}");
        List<JsonNode> frames = rebound.framesUntil("agent_end", WAIT);
        assertThat(frames)
                .extracting(RpcModeIT::type)
                .containsExactly(
                        "agent_start",
                        "message_start",
                        "message_end",
                        "message_start",
                        "message_update",
                        "message_update",
                        "message_update",
                        "message_end",
                        "agent_end");
        assertThat(frames.get(4).path("delta").asText()).isEqualTo("Hel");
        JsonNode reply = frames.get(7).path("message");
        assertThat(reply.path("stopReason").asText()).isEqualTo("stop");
        assertThat(reply.path("content").get(0).path("text").asText()).isEqualTo("Hello there");
        assertThat(reply.path("usage").path("outputTokens").asInt()).isEqualTo(3);
        assertThat(frames.get(8).path("willRetry").asBoolean()).isFalse();
        String session = frames.getFirst().path("sessionId").asText();
        String turn = frames.getFirst().path("turnId").asText();
        assertThat(session).as("every event names its session").isNotEmpty();
        assertThat(frames).allSatisfy(f -> {
            assertThat(f.path("sessionId").asText()).as(f.toString()).isEqualTo(session);
            assertThat(f.path("turnId").asText()).as(f.toString()).isEqualTo(turn);
        });
        assertThat(rebound.waitForExit(WAIT)).isZero();

        RecordedRequest request = server.takeRequest();
        assertThat(request.getTarget()).isEqualTo("/v1/chat/completions");
        assertThat(request.getBody().utf8()).contains("\"content\":\"hi\"").contains("\"stream\":true");
    }

    @Test
    void aReaderThatGoesAwayBeforeReadyEndsTheProcessWithAWarningNotAStackTrace() throws Exception {
        writeSettings("");
        Path stderr = configDir.resolve("stderr.txt");
        Process process = rpcWithStderrTo(stderr);
        try {
            process.getInputStream().close();
            process.getOutputStream().close();

            assertEndsWithOneWarning(process, stderr);
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void aReaderThatGoesAwayAfterReadyEndsTheProcessAtTheNextResponse() throws Exception {
        writeSettings("");
        Path stderr = configDir.resolve("stderr.txt");
        Process process = rpcWithStderrTo(stderr);
        try {
            BufferedReader stdout =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            assertThat(stdout.readLine()).isEqualTo("{\"type\":\"ready\",\"protocolVersion\":1}");
            stdout.close();
            // stdin stays open: the failed response, not the end of input, ends the process.
            process.getOutputStream().write("{\"id\":1,\"type\":\"get_state\"}\n".getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();

            assertEndsWithOneWarning(process, stderr);
        } finally {
            process.destroyForcibly();
        }
    }

    /** RPC mode started on {@link #configDir}, its streams left to the test, stderr to {@code stderr}. */
    private Process rpcWithStderrTo(Path stderr) throws IOException {
        return ReboundProcess.command(List.of(), configDir, "--mode", "rpc")
                .redirectError(stderr.toFile())
                .start();
    }

    /** The process exits 0 within {@link #WAIT}, having said on stderr why in one line, with no stack trace. */
    private static void assertEndsWithOneWarning(Process process, Path stderr) throws Exception {
        assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(Files.readString(stderr))
                .contains("RPC input or output failed")
                .doesNotContain("\tat ")
                .doesNotContain("Exception in thread");
    }

    @Test
    void endOfInputLetsTheRunningTurnFinishBeforeExiting() throws Exception {
        writeSettings("");
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(Sse.chunk("slow") + Sse.finish())
                .headersDelay(1500, java.util.concurrent.TimeUnit.MILLISECONDS)
                .build());
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.closeStdin();
        List<JsonNode> frames = rebound.framesUntil("agent_end", WAIT);
        assertThat(frames).extracting(RpcModeIT::type).contains("message_update");
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void commandsAnswerWithTheirIdsAndStateReflectsTheSession() throws Exception {
        writeSettings("");
        server.enqueue(Sse.reply("Answer one"));
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);

        rebound.send("{\"id\":1,\"type\":\"get_available_models\"}");
        JsonNode models = rebound.next(WAIT);
        assertThat(models.path("id").asInt()).isEqualTo(1);
        assertThat(models.path("data").path("models").toString())
                .isEqualTo("[{\"provider\":\"local\",\"id\":\"test-model\",\"contextWindow\":8192},"
                        + "{\"provider\":\"local\",\"id\":\"other\"}]");

        rebound.send("{\"id\":2,\"type\":\"prompt\",\"message\":\"one\"}");
        rebound.until(f -> type(f).equals("agent_end"), WAIT);

        rebound.send("{\"id\":3,\"type\":\"get_last_assistant_text\"}");
        assertThat(rebound.next(WAIT).path("data").path("text").asText()).isEqualTo("Answer one");
        rebound.send("{\"id\":4,\"type\":\"get_messages\"}");
        JsonNode messages = rebound.next(WAIT).path("data").path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).path("role").asText()).isEqualTo("user");

        rebound.send("{\"id\":5,\"type\":\"set_model\",\"provider\":\"local\",\"modelId\":\"other\"}");
        JsonNode changed = rebound.until(f -> type(f).equals("model_changed"), WAIT);
        assertThat(changed.path("model").path("id").asText()).isEqualTo("other");
        assertThat(changed.has("sessionId"))
                .as("names its session: %s", changed)
                .isTrue();
        assertThat(changed.has("turnId"))
                .as("a choice between turns belongs to no turn: %s", changed)
                .isFalse();
        JsonNode setModel = rebound.next(WAIT);
        assertThat(setModel.path("success").asBoolean()).isTrue();

        rebound.send("{\"id\":6,\"type\":\"set_model\",\"provider\":\"local\",\"modelId\":\"missing\"}");
        JsonNode refused = rebound.next(WAIT);
        assertThat(refused.path("success").asBoolean()).isFalse();
        assertThat(refused.path("error").asText()).contains("local/missing").contains("not configured");

        rebound.send("{\"id\":7,\"type\":\"get_state\"}");
        JsonNode state = rebound.next(WAIT).path("data");
        assertThat(state.path("model").path("id").asText()).isEqualTo("other");
        assertThat(state.path("isStreaming").asBoolean()).isFalse();
        assertThat(state.path("messageCount").asInt()).isEqualTo(2);
        assertThat(state.path("autoRetryEnabled").asBoolean()).isTrue();
        String firstSession = state.path("sessionId").asText();
        assertThat(changed.path("sessionId").asText()).isEqualTo(firstSession);

        rebound.send("{\"id\":8,\"type\":\"new_session\"}");
        JsonNode fresh = rebound.next(WAIT);
        assertThat(fresh.path("data").path("sessionId").asText()).isNotEqualTo(firstSession);
        rebound.send("{\"id\":9,\"type\":\"get_messages\"}");
        assertThat(rebound.next(WAIT).path("data").path("messages")).isEmpty();
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void badLinesGetErrorResponsesAndTheProcessGoesOn() throws Exception {
        writeSettings("");
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        rebound.send("this is not json");
        JsonNode parse = rebound.next(WAIT);
        assertThat(parse.path("command").asText()).isEqualTo("parse");
        assertThat(parse.path("success").asBoolean()).isFalse();

        rebound.send("{\"type\":\"get_state\"} {\"type\":\"abort\"}");
        JsonNode twoObjects = rebound.next(WAIT);
        assertThat(twoObjects.path("command").asText()).isEqualTo("parse");
        assertThat(twoObjects.path("success").asBoolean()).isFalse();

        rebound.send("{\"id\":\"x\",\"type\":\"frobnicate\"}");
        JsonNode unknown = rebound.next(WAIT);
        assertThat(unknown.path("id").asText()).isEqualTo("x");
        assertThat(unknown.path("error").asText())
                .contains("frobnicate")
                .contains("abort_retry")
                .contains("set_settings");

        rebound.send("{\"id\":\"y\",\"type\":\"prompt\"}");
        assertThat(rebound.next(WAIT).path("error").asText()).contains("message");

        rebound.send("{\"id\":\"n\",\"type\":5}");
        assertThat(rebound.next(WAIT).path("error").asText())
                .startsWith("The command's \"type\" must be a string naming the command, not number 5");
        rebound.send("{\"id\":\"m\"}");
        assertThat(rebound.next(WAIT).path("error").asText()).startsWith("The command has no \"type\" field");

        rebound.sendRaw("{\"id\":\"crlf\",\"type\":\"get_state\"}\r\n".getBytes(StandardCharsets.UTF_8));
        assertThat(rebound.next(WAIT).path("success").asBoolean()).isTrue();

        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        // Error texts go to the log: it is the owner's only, like the rest of the config directory.
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(configDir.resolve("logs/rebound.log"))))
                .isEqualTo("rw-------");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(configDir.resolve("logs"))))
                .isEqualTo("rwx------");
    }

    @Test
    void lineSeparatorCharactersInsideAMessageAreDataNotLineEnds() throws Exception {
        writeSettings("");
        server.enqueue(Sse.reply("ok"));
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        rebound.sendRaw("{\"type\":\"prompt\",\"message\":\"a\u2028b\u2029c\"}\n".getBytes(StandardCharsets.UTF_8));
        assertThat(rebound.next(WAIT).path("success").asBoolean()).isTrue();
        rebound.until(f -> type(f).equals("agent_end"), WAIT);
        assertThat(server.takeRequest().getBody().utf8()).contains("a\u2028b\u2029c");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void aSecondPromptWhileOneRunsIsRefused() throws Exception {
        writeSettings("");
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(Sse.chunk("x") + Sse.finish())
                .headersDelay(1, java.util.concurrent.TimeUnit.SECONDS)
                .build());
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        rebound.send("{\"id\":1,\"type\":\"prompt\",\"message\":\"one\"}");
        rebound.send("{\"id\":2,\"type\":\"prompt\",\"message\":\"two\"}");
        JsonNode second = rebound.until(f -> f.path("id").asInt() == 2, WAIT);
        assertThat(second.path("success").asBoolean()).isFalse();
        assertThat(second.path("error").asText()).contains("already running");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void abortStopsAStreamingTurnAtOnce() throws Exception {
        writeSettings("");
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(Sse.chunk("never"))
                .headersDelay(30, java.util.concurrent.TimeUnit.SECONDS)
                .build());
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.until(f -> type(f).equals("agent_start"), WAIT);
        long start = System.nanoTime();
        rebound.send("{\"type\":\"abort\"}");
        JsonNode end = rebound.until(
                f -> type(f).equals("message_end")
                        && f.path("message").path("role").asText().equals("assistant"),
                WAIT);
        assertThat(end.path("message").path("stopReason").asText()).isEqualTo("aborted");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void sigtermAbortsTheRunningTurnAndExits() throws Exception {
        writeSettings("");
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(Sse.chunk("never"))
                .headersDelay(30, java.util.concurrent.TimeUnit.SECONDS)
                .build());
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.until(f -> type(f).equals("agent_start"), WAIT);
        ProcessHandle.of(rebound.pid()).orElseThrow().destroy();
        int code = rebound.waitForExit(Duration.ofSeconds(10));
        assertThat(code).isIn(0, 143);
        assertThat(rebound.drain()).extracting(RpcModeIT::type).contains("message_end");
    }

    @Test
    void aSettingsFileWithASyntaxErrorIsReportedAndLeftUntouched() throws Exception {
        // The mistake is a secret header value left unquoted: the parser's own message would quote it whole.
        String unquoted = "azure5f3e9d1c7b2a40e8d6c4";
        byte[] broken = ("{\n  \"model\": \"local/test-model\",\n  \"providers\": { \"local\": { \"api\": "
                        + "\"openai-completions\", \"baseUrl\": \""
                        + SecretSweep.baseUrlWithPassword(server.url("/v1").toString()) + "\", "
                        + SecretSweep.PROVIDER_SECRETS.replace(
                                "}, \"query\"", ", \"Api-Key\": " + unquoted + " }, \"query\"")
                        + ", \"models\": [ { \"id\": \"test-model\" } ] } },\n"
                        + "  \"retry\": { \"maxRetries\": 3 }\n}\n")
                .getBytes(StandardCharsets.UTF_8);
        SecretSweep.writeCredentials(configDir, "local", "canary", FaultSuiteIT.KEY);
        Path settings = configDir.resolve("settings.json");
        Files.write(settings, broken);
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        assertThat(type(rebound.next(WAIT))).isEqualTo("ready");
        JsonNode notice = rebound.until(f -> type(f).equals("notice"), WAIT);
        assertThat(notice.path("message").asText())
                .contains("settings.json")
                .contains("line 3")
                .contains("column");
        rebound.send("{\"type\":\"get_settings\"}");
        JsonNode effective = rebound.until(f -> type(f).equals("response"), WAIT);
        assertThat(effective.path("data").path("retry").path("maxRetries").asInt())
                .isEqualTo(10);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(Files.readAllBytes(settings)).isEqualTo(broken);
        List<String> secrets = new java.util.ArrayList<>(SECRETS);
        secrets.add(unquoted);
        SecretSweep.assertNowhere(secrets, rebound, configDir);
    }

    @Test
    void aSaveOverABrokenSettingsFileSaysWhereItWasKeptAndTheNextStartWarnsInsteadOfSilentlySimulating()
            throws Exception {
        Path settings = configDir.resolve("settings.json");
        Files.writeString(
                settings,
                "{ \"model\": \"openai/gpt-4.1\", \"providers\": { \"openai\": { \"api\": "
                        + "\"openai-completions\", \"baseUrl\": \""
                        + SecretSweep.baseUrlWithPassword("http://api.openai.example/v1") + "\", "
                        + SecretSweep.PROVIDER_SECRETS + ", } } }");
        SecretSweep.writeCredentials(configDir, "openai", "canary", FaultSuiteIT.KEY);
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        ReboundProcess first = rebound;
        rebound.next(WAIT);

        rebound.send("{\"id\":1,\"type\":\"set_auto_retry\",\"enabled\":false}");
        JsonNode saved = null;
        JsonNode told = null;
        while (saved == null || told == null) {
            // The response and the notice come in either order.
            JsonNode frame = rebound.next(WAIT);
            if (frame.path("id").asInt() == 1) {
                saved = frame;
            } else if (type(frame).equals("notice")
                    && frame.path("message").asText().contains("kept as")) {
                told = frame;
            }
        }
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        Path kept;
        try (var files = Files.list(configDir)) {
            kept = files.filter(p -> p.getFileName().toString().startsWith("settings.json.bak-"))
                    .findFirst()
                    .orElseThrow();
        }
        ReboundProcess restarted = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound = restarted;
        restarted.next(WAIT);
        JsonNode warning = restarted.until(f -> type(f).equals("notice"), WAIT);
        restarted.closeStdin();
        restarted.waitForExit(WAIT);

        assertThat(saved.path("success").asBoolean()).isTrue();
        assertThat(told.path("level").asText()).isEqualTo("warning");
        assertThat(told.path("message").asText()).contains(kept.toString()).contains("copy your providers");
        assertThat(Files.readString(kept)).contains("\"openai\"");
        assertThat(warning.path("level").asText()).isEqualTo("warning");
        assertThat(warning.path("message").asText())
                .contains("built-in simulator")
                .contains("kept as " + kept);
        assertThat(Files.readString(kept)).contains(FaultSuiteIT.HEADER_SECRET);
        SecretSweep.assertNowhere(SECRETS, List.of(first, restarted), configDir);
    }

    @Test
    void twoProcessesOnOneConfigDirectoryKeepEachOthersChangesAndSeeThem() throws Exception {
        writeSettingsWithSecrets();
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        try (ReboundProcess other = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc")) {
            other.next(WAIT);

            rebound.send("{\"id\":1,\"type\":\"set_settings\",\"patch\":{\"retry\":{\"maxRetries\":3}}}");
            assertThat(rebound.until(f -> f.path("id").asInt() == 1, WAIT)
                            .path("success")
                            .asBoolean())
                    .isTrue();
            other.send("{\"id\":2,\"type\":\"set_settings\",\"patch\":{\"timeouts\":{\"idleMs\":5000}}}");
            JsonNode second = other.until(f -> f.path("id").asInt() == 2, WAIT);

            assertThat(second.path("data").path("retry").path("maxRetries").asInt())
                    .as("the second process saved over the first's change, not against its old view")
                    .isEqualTo(3);
            JsonNode onDisk = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(Files.readString(configDir.resolve("settings.json")));
            assertThat(onDisk.path("retry").path("maxRetries").asInt()).isEqualTo(3);
            assertThat(onDisk.path("timeouts").path("idleMs").asInt()).isEqualTo(5000);
            long seen = 0;
            for (int i = 0; i < 50 && seen != 5000; i++) {
                rebound.send("{\"id\":" + (10 + i) + ",\"type\":\"get_settings\"}");
                int id = 10 + i;
                seen = rebound.until(f -> f.path("id").asInt() == id, WAIT)
                        .path("data")
                        .path("timeouts")
                        .path("idleMs")
                        .asLong();
                if (seen != 5000) {
                    Thread.sleep(200);
                }
            }
            assertThat(seen)
                    .as("the first process picked up the second's change")
                    .isEqualTo(5000);
            // Settings reloaded from the other process's save still know every secret to redact.
            String echoed = FaultSuiteIT.KEY + " " + FaultSuiteIT.HEADER_SECRET + " " + FaultSuiteIT.URL_PASSWORD;
            server.enqueue(Sse.reply("echo " + echoed.substring(0, 20), echoed.substring(20)));
            rebound.send("{\"type\":\"prompt\",\"message\":\"after the reload\"}");
            assertThat(rebound.until(
                                    f -> type(f).equals("message_end")
                                            && f.path("message")
                                                    .path("role")
                                                    .asText()
                                                    .equals("assistant"),
                                    WAIT)
                            .path("message")
                            .path("content")
                            .path(0)
                            .path("text")
                            .asText())
                    .startsWith("echo [redacted]");
            rebound.until(f -> type(f).equals("agent_end"), WAIT);
            other.closeStdin();
            assertThat(other.waitForExit(WAIT)).isZero();
            rebound.closeStdin();
            assertThat(rebound.waitForExit(WAIT)).isZero();
            SecretSweep.assertNowhere(SECRETS, List.of(rebound, other), configDir);
        }
    }

    @Test
    void secretHeadersAreMaskedInGetSettingsAndAMaskedValueSentBackKeepsTheStoredOne() throws Exception {
        String secret = "az-rpc-secret-0123456789";
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "azure/gpt-4o",
                  "providers": {
                    "azure": { "api": "openai-completions", "baseUrl": "%s",
                               "models": [ { "id": "gpt-4o" } ],
                               "headers": { "api-key": "%s", "X-Title": "Rebound" },
                               "query": { "api-version": "2024-10-21" } } } }
                """.formatted(
                        server.url("/v1").toString(), secret));
        server.enqueue(Sse.reply("hi"));
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);

        rebound.send("{\"id\":1,\"type\":\"get_settings\"}");
        JsonNode shown = rebound.until(f -> f.path("id").asInt() == 1, WAIT).path("data");
        JsonNode azure = shown.path("providers").path("azure");
        assertThat(azure.path("headers").path("api-key").asText()).isEqualTo("••••6789");
        assertThat(azure.path("headers").path("X-Title").asText()).isEqualTo("Rebound");
        rebound.send("{\"id\":2,\"type\":\"set_settings\",\"patch\":{\"providers\":{\"azure\":" + azure.toString()
                + "},\"retry\":{\"maxRetries\":4}}}");
        JsonNode saved = rebound.until(f -> f.path("id").asInt() == 2, WAIT);
        rebound.wholeTurn("hello", WAIT);

        assertThat(saved.path("success").asBoolean()).isTrue();
        assertThat(saved.path("data")
                        .path("providers")
                        .path("azure")
                        .path("headers")
                        .path("api-key")
                        .asText())
                .isEqualTo("••••6789");
        assertThat(Files.readString(configDir.resolve("settings.json")))
                .contains(secret)
                .contains("\"maxRetries\": 4");
        var request = server.takeRequest(1, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(request.getHeaders().get("api-key")).isEqualTo(secret);
        assertThat(request.getUrl().queryParameter("api-version")).isEqualTo("2024-10-21");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        // No piece of the header secret anywhere but settings.json: not on stdout (get_settings, set_settings),
        // stderr, the log, the chat file or state/.
        SecretSweep.assertNowhere(List.of(secret), rebound, configDir);
    }

    @Test
    void anInvalidSettingsPatchIsRefusedWholeAndNothingIsWritten() throws Exception {
        writeSettings("");
        Path settings = configDir.resolve("settings.json");
        byte[] before = Files.readAllBytes(settings);
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        rebound.send("{\"id\":1,\"type\":\"set_settings\",\"patch\":{\"retry\":{\"maxRetries\":-1,"
                + "\"baseDelayMs\":2000,\"fallbackRevertPolicy\":\"sometimes\"}}}");
        JsonNode refused = rebound.next(WAIT);
        assertThat(refused.path("success").asBoolean()).isFalse();
        assertThat(refused.path("error").asText()).contains("retry.maxRetries").contains("retry.fallbackRevertPolicy");
        rebound.send("{\"id\":2,\"type\":\"get_settings\"}");
        assertThat(rebound.next(WAIT)
                        .path("data")
                        .path("retry")
                        .path("baseDelayMs")
                        .asInt())
                .isEqualTo(500);

        rebound.send("{\"id\":3,\"type\":\"set_settings\",\"patch\":{\"retry\":{\"maxRetries\":3}}}");
        JsonNode applied = rebound.next(WAIT);
        assertThat(applied.path("success").asBoolean()).isTrue();
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(Files.readAllBytes(settings)).isNotEqualTo(before);
        JsonNode saved = new com.fasterxml.jackson.databind.ObjectMapper().readTree(Files.readString(settings));
        assertThat(saved.path("retry").path("maxRetries").asInt()).isEqualTo(3);
        assertThat(saved.path("providers")
                        .path("local")
                        .path("models")
                        .get(0)
                        .path("id")
                        .asText())
                .isEqualTo("test-model");
    }

    @Test
    void aHostileServerEchoingTheKeyAcrossCutsAndChunksNeverMakesItLeak() throws Exception {
        String canary = "sk-canary-" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
        writeSettings(", \"retry\": { \"enabled\": false }");
        Files.writeString(
                configDir.resolve("credentials.json"),
                "{ \"local\": [ { \"label\": \"work\", \"apiKey\": \"" + canary + "\" } ] }");
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .addHeader("Content-Type", "text/plain")
                .body("x".repeat(285) + canary + " trailing")
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(400)
                .addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"" + "y".repeat(1985) + canary + "\",\"type\":\"invalid\"}}")
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body("data: {not json " + canary + "}\n\n")
                .build());
        int half = canary.length() / 2;
        server.enqueue(Sse.reply("Your key: " + canary.substring(0, half), canary.substring(half), " ok"));
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        for (int i = 0; i < 4; i++) {
            rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
            rebound.until(f -> type(f).equals("agent_end"), WAIT);
        }
        rebound.send("{\"type\":\"get_messages\"}");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        String stdout = rebound.stdout();
        SecretSweep.assertNoPiece(List.of(canary), stdout, "stdout");
        assertThat(stdout).contains("Your key: [redacted] ok");
        SecretSweep.assertNowhere(List.of(canary), rebound, configDir);
    }

    @Test
    void aCanaryApiKeyTravelsOnlyInTheAuthorizationHeader() throws Exception {
        String canary = "sk-canary-" + "7f3a9b2c4d5e6f708192a3b4c5d6e7f8";
        writeSettings("");
        Files.writeString(
                configDir.resolve("credentials.json"),
                "{ \"local\": [ { \"label\": \"work\", \"apiKey\": \"" + canary + "\" } ] }");
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"Incorrect API key provided: " + canary + ". You can find your API "
                        + "key at https://platform.openai.com/account/api-keys.\",\"type\":\"invalid_request_error\","
                        + "\"param\":null,\"code\":\"invalid_api_key\"}}")
                .build());
        server.enqueue(Sse.reply("fine"));
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        rebound.send("{\"type\":\"prompt\",\"message\":\"one\"}");
        JsonNode failed = rebound.until(f -> type(f).equals("agent_end"), WAIT);
        rebound.send("{\"type\":\"prompt\",\"message\":\"two\"}");
        rebound.until(f -> type(f).equals("agent_end"), WAIT);
        rebound.send("{\"type\":\"get_settings\"}");
        rebound.send("{\"type\":\"get_messages\"}");
        rebound.send("{\"type\":\"get_state\"}");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();

        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer " + canary);
        assertThat(rebound.stdout())
                .contains("invalid_api_key")
                .contains("work")
                .doesNotContain(canary);
        assertThat(rebound.stderr()).doesNotContain(canary);
        try (Stream<Path> files = Files.walk(configDir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (file.getFileName().toString().equals("credentials.json")) {
                    continue;
                }
                assertThat(Files.readString(file, StandardCharsets.ISO_8859_1))
                        .as(file.toString())
                        .doesNotContain(canary);
            }
        }
        assertThat(failed).isNotNull();
    }
}
