package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Saved chats end to end: files under sessions/, --session, new_session, resume without failed attempts. */
class SessionsIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path configDir;

    private MockWebServer server;
    private final ScriptedServer script = new ScriptedServer();
    private final List<String> bodies = new ArrayList<>();
    private ReboundProcess rebound;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.setDispatcher(new mockwebserver3.Dispatcher() {
            @Override
            public mockwebserver3.MockResponse dispatch(RecordedRequest request) throws InterruptedException {
                bodies.add(request.getBody().utf8());
                return script.dispatch(request);
            }
        });
        server.start();
        String url = server.url("/v1").toString();
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "anthropic/claude",
                  "providers": {
                    "anthropic": { "api": "openai-completions", "baseUrl": "%s", "models": [ { "id": "claude" } ] },
                    "openai":    { "api": "openai-completions", "baseUrl": "%s", "models": [ { "id": "gpt" } ] } },
                  "retry": { "baseDelayMs": 10, "fallbackChains": { "default": ["openai/gpt"] } } }
                """.formatted(url, url));
    }

    @AfterEach
    void stop() throws IOException {
        if (rebound != null) {
            rebound.close();
        }
        server.close();
    }

    private static String type(JsonNode f) {
        return f.path("type").asText();
    }

    private JsonNode command(String json, String id) throws Exception {
        rebound.send(json.replace("{", "{\"id\":\"" + id + "\","));
        return rebound.until(f -> id.equals(f.path("id").asText()), WAIT);
    }

    private void prompt(String text) throws Exception {
        rebound.send("{\"type\":\"prompt\",\"message\":\"" + text + "\"}");
        while (true) {
            JsonNode end = rebound.until(f -> type(f).equals("agent_end"), WAIT);
            if (!end.path("willRetry").asBoolean()) {
                return;
            }
        }
    }

    private static List<JsonNode> lines(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    @Test
    void aChatIsSavedAsItGoesAndTitledFromItsFirstPrompt() throws Exception {
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        prompt("Explain exponential backoff with jitter in simple words please");
        JsonNode state = command("{\"type\":\"get_state\"}", "s").path("data");
        Path file = Path.of(state.path("sessionFile").asText());
        assertThat(file.getParent()).isEqualTo(configDir.resolve("sessions"));
        assertThat(file.getFileName().toString())
                .isEqualTo(state.path("sessionId").asText() + ".jsonl");
        assertThat(state.path("title").asText()).isEqualTo("Explain exponential backoff with jitter in simple words…");

        List<JsonNode> lines = lines(file);
        assertThat(lines.getFirst().path("type").asText()).isEqualTo("session");
        assertThat(lines)
                .extracting(l -> l.path("type").asText())
                .containsExactly("session", "message", "message", "title");
        assertThat(lines.get(2)
                        .path("message")
                        .path("content")
                        .get(0)
                        .path("text")
                        .asText())
                .isEqualTo("reply from claude");

        JsonNode fresh = command("{\"type\":\"new_session\"}", "n");
        String newId = fresh.path("data").path("sessionId").asText();
        assertThat(configDir.resolve("sessions/" + newId + ".jsonl")).exists();
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void failedAttemptsAreSavedMarkedRetriedAndNeverSentAgainOnResume() throws Exception {
        script.on(
                "claude",
                ScriptedServer.status(
                        503, "{\"error\":{\"message\":\"busy\",\"type\":\"server_error\"}}", "x-should-retry", "true"));
        Files.writeString(
                configDir.resolve("settings.json"),
                Files.readString(configDir.resolve("settings.json"))
                        .replace("\"fallbackChains\": { \"default\": [\"openai/gpt\"] }", "\"modelFallback\": false"));
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        prompt("first question");
        Path file = Path.of(command("{\"type\":\"get_state\"}", "s")
                .path("data")
                .path("sessionFile")
                .asText());
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();

        List<JsonNode> lines = lines(file);
        JsonNode failed = lines.stream()
                .filter(l -> l.path("message").path("stopReason").asText().equals("error"))
                .findFirst()
                .orElseThrow();
        String failedId = failed.path("message").path("id").asText();
        assertThat(lines).anySatisfy(l -> {
            assertThat(l.path("type").asText()).isEqualTo("retried");
            assertThat(l.path("messageId").asText()).isEqualTo(failedId);
            assertThat(l.path("retried").asBoolean()).isTrue();
        });
        assertThat(lines).extracting(l -> l.path("type").asText()).contains("retry_chain");

        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--session", file.toString());
        rebound.next(WAIT);
        JsonNode messages =
                command("{\"type\":\"get_messages\"}", "m").path("data").path("messages");
        assertThat(messages).extracting(m -> m.path("role").asText()).containsExactly("user", "assistant");
        prompt("second question");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();

        JsonNode sent = JSON.readTree(bodies.getLast()).path("messages");
        assertThat(sent)
                .extracting(m -> m.path("content").asText())
                .containsExactly("first question", "reply from claude", "second question");
        assertThat(bodies.getLast()).doesNotContain("busy");
        assertThat(lines(file).stream().filter(l -> l.path("type").asText().equals("session")))
                .hasSize(1);
    }

    @Test
    void aReopenedSessionStartsOnTheUsersModelNeverOnItsFallback() throws Exception {
        script.on("claude", ScriptedServer.overloaded());
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        prompt("hi");
        JsonNode state = command("{\"type\":\"get_state\"}", "s").path("data");
        assertThat(state.path("model").path("id").asText()).isEqualTo("gpt");
        Path file = Path.of(state.path("sessionFile").asText());
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();

        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--session", file.toString());
        rebound.next(WAIT);
        JsonNode reopened = command("{\"type\":\"get_state\"}", "s").path("data");
        assertThat(reopened.path("model").path("id").asText()).isEqualTo("claude");
        assertThat(reopened.path("fallbackActive").asBoolean()).isFalse();
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    /**
     * Configures every kind of secret of the fault suite (keys, a secret header and query value, a URL password), and
     * makes the first reply echo the key, cut between two events, so that a sweep at the end means something.
     */
    private void configureCanary() throws IOException {
        SecretSweep.addToSettings(configDir, server.url("/v1").toString());
        SecretSweep.writeCredentials(
                configDir, "anthropic", "canary", FaultSuiteIT.KEY, "openai", "spare", FaultSuiteIT.SPARE_KEY);
        script.on("claude", Sse.reply("key " + FaultSuiteIT.KEY.substring(0, 9), FaultSuiteIT.KEY.substring(9)));
    }

    @Test
    void aFileWithATruncatedLastLineOrAGarbageLineReopensWithAClearNotice() throws Exception {
        // The canary secrets ride along; the first reply echoes the key, cut between two events.
        configureCanary();
        List<ReboundProcess> processes = new ArrayList<>();
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        processes.add(rebound);
        rebound.next(WAIT);
        prompt("one");
        prompt("two");
        Path file = Path.of(command("{\"type\":\"get_state\"}", "s")
                .path("data")
                .path("sessionFile")
                .asText());
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();

        List<String> original = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> damaged = new ArrayList<>(original);
        damaged.add(2, "this line is garbage {{{");
        String text = String.join("\n", damaged) + "\n{\"type\":\"message\",\"id\":\"torn\",\"ts\":1,\"mess";
        Files.writeString(file, text);
        byte[] before = Files.readAllBytes(file);

        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--session", file.toString());
        processes.add(rebound);
        rebound.next(WAIT);
        List<JsonNode> notices = new ArrayList<>();
        notices.add(rebound.until(f -> type(f).equals("notice"), WAIT));
        notices.add(rebound.until(f -> type(f).equals("notice"), WAIT));
        assertThat(notices)
                .extracting(n -> n.path("message").asText())
                .anySatisfy(m -> assertThat(m).contains("line 3"))
                .anySatisfy(m -> assertThat(m).contains("line " + (damaged.size() + 1)));
        JsonNode messages =
                command("{\"type\":\"get_messages\"}", "m").path("data").path("messages");
        assertThat(messages).hasSize(4);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        byte[] after = Files.readAllBytes(file);
        assertThat(new String(after, 0, before.length, StandardCharsets.UTF_8))
                .as("the damaged bytes are kept as they were")
                .isEqualTo(new String(before, StandardCharsets.UTF_8));

        // Said once: reopened again, the same damage is skipped without a notice.
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--session", file.toString());
        processes.add(rebound);
        rebound.next(WAIT);
        assertThat(command("{\"type\":\"get_messages\"}", "m2").path("data").path("messages"))
                .hasSize(4);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.drain())
                .noneMatch(f ->
                        type(f).equals("notice") && f.path("message").asText().contains("line "));
        assertThat(rebound.stdout()).doesNotContain("is not a complete entry").doesNotContain("is not a valid entry");
        assertThat(String.join("\n", original)).contains("key [redacted]");
        SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, processes, configDir);
    }

    @Test
    void aChatOpenInOneProcessOpensReadOnlyInAnotherSoTheirTurnsNeverInterleave() throws Exception {
        configureCanary();
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        rebound.next(WAIT);
        prompt("from the first process");
        Path file = Path.of(command("{\"type\":\"get_state\"}", "s")
                .path("data")
                .path("sessionFile")
                .asText());
        long linesBefore = Files.readAllLines(file).size();

        ReboundProcess second =
                ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--session", file.toString());
        try {
            second.next(WAIT);
            JsonNode notice = second.until(f -> type(f).equals("notice"), WAIT);
            assertThat(notice.path("message").asText()).contains("read-only").contains("another Rebound process");
            second.send("{\"type\":\"prompt\",\"message\":\"from the second process\"}");
            second.until(
                    f -> type(f).equals("agent_end") && !f.path("willRetry").asBoolean(), WAIT);
            second.closeStdin();
            assertThat(second.waitForExit(WAIT)).isZero();
        } finally {
            second.close();
        }
        assertThat(Files.readAllLines(file)).hasSize((int) linesBefore);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(Files.readString(file)).contains("key [redacted]");
        SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, List.of(rebound, second), configDir);
    }

    @Test
    void anUnknownSessionFileIsAClearUsageError() throws Exception {
        rebound = ReboundProcess.start(
                configDir,
                Map.of(),
                "--mode",
                "rpc",
                "--session",
                configDir.resolve("sessions/nope.jsonl").toString());
        assertThat(rebound.waitForExit(WAIT)).isEqualTo(2);
        assertThat(rebound.stderr()).contains("no such session file");
        try (Stream<Path> s = Files.list(configDir)) {
            assertThat(s.map(p -> p.getFileName().toString())).doesNotContain("nope.jsonl");
        }
    }
}
