package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.SessionLoader;
import dev.rebound.transcript.ChatMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the real RPC process with SIGKILL at random moments while it streams replies and retries, 50 times, then
 * checks each session file: it loads, every message whose {@code message_end} the host had read is in it, nothing is
 * duplicated, and reopening it with {@code --session} gives exactly the saved conversation. The process that reopened
 * a chat then starts a new one ({@code new_session}) and is the next one killed; the last exits cleanly.
 */
class CrashSafetyIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int RUNS = Integer.getInteger("crash.runs", 50);

    @TempDir
    Path configDir;

    @Test
    void aKilledProcessLosesNoCompletedEntryAndDuplicatesNothing() throws Exception {
        Random random = new Random(20261201);
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new FlakyStreamingServer(new Random(7)));
            server.start();
            // The canary secrets ride along (a key, a secret header and query value, a base-URL password), and
            // the server echoes the key and the header's value cut between two events: no kill may leave a piece of
            // one anywhere.
            Files.writeString(configDir.resolve("settings.json"), """
                    { "model": "local/m",
                      "providers": { "local": { "api": "openai-completions", "baseUrl": "%s", %s,
                                                "models": [ { "id": "m" } ] } },
                      "retry": { "baseDelayMs": 30 } }
                    """.formatted(
                    SecretSweep.baseUrlWithPassword(server.url("/v1").toString()), SecretSweep.PROVIDER_SECRETS));
            SecretSweep.writeCredentials(configDir, "local", "canary", FaultSuiteIT.KEY);
            List<String> secrets = List.of(
                    FaultSuiteIT.KEY, FaultSuiteIT.HEADER_SECRET, FaultSuiteIT.URL_PASSWORD, FaultSuiteIT.QUERY_SECRET);
            List<ReboundProcess> processes = new ArrayList<>();
            int killedMidTurn = 0;
            // The process that reopens a killed chat is also the next one killed, in a new chat: one start per kill
            // instead of two (each start is most of a run's time).
            ReboundProcess rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
            processes.add(rebound);
            rebound.until(f -> f.path("type").asText().equals("ready"), WAIT);
            for (int run = 0; run < RUNS; run++) {
                Path file = sessionFile(rebound);
                boolean insideTurn = promptAndKill(rebound, file, run, random.nextInt(50, 1500));
                killedMidTurn += insideTurn ? 1 : 0;
                rebound = reopenAndCheck(file, run);
                processes.add(rebound);
                if (run + 1 < RUNS) {
                    rebound.send("{\"id\":\"n\",\"type\":\"new_session\"}");
                    assertThat(rebound.until(f -> "n".equals(f.path("id").asText()), WAIT)
                                    .path("success")
                                    .asBoolean())
                            .as("run %d: the reopened chat closes and a new one starts", run)
                            .isTrue();
                }
            }
            rebound.closeStdin();
            assertThat(rebound.waitForExit(WAIT)).isZero();
            rebound.close();
            assertThat(killedMidTurn).as("most kills should land inside a turn").isGreaterThan(RUNS / 2);
            SecretSweep.assertNowhere(secrets, processes, configDir);
        }
    }

    private static Path sessionFile(ReboundProcess rebound) throws Exception {
        rebound.send("{\"id\":\"s\",\"type\":\"get_state\"}");
        return Path.of(rebound.until(f -> "s".equals(f.path("id").asText()), WAIT)
                .path("data")
                .path("sessionFile")
                .asText());
    }

    /** Prompts, kills the process after that long, and checks the file; returns whether the kill hit a turn. */
    private static boolean promptAndKill(ReboundProcess rebound, Path file, int run, int killAfterMs) throws Exception {
        try {
            rebound.send("{\"type\":\"prompt\",\"message\":\"run " + run + " question\"}");
            TimeUnit.MILLISECONDS.sleep(killAfterMs);
            ProcessHandle.of(rebound.pid()).orElseThrow().destroyForcibly();
            rebound.waitForExit(WAIT);
        } finally {
            rebound.close();
        }
        List<JsonNode> frames = rebound.drain();
        Set<String> seenEnded = new HashSet<>();
        boolean insideTurn = false;
        for (JsonNode f : frames) {
            switch (f.path("type").asText()) {
                case "message_end" -> seenEnded.add(f.path("message").path("id").asText());
                case "agent_start" -> insideTurn = true;
                case "agent_end" -> insideTurn = f.path("willRetry").asBoolean();
                default -> {}
            }
        }

        LoadedSession loaded = new SessionLoader().load(file);
        List<String> ids = new ArrayList<>();
        for (JournalEntry e : loaded.entries()) {
            ids.add(e.id());
        }
        assertThat(ids).as("run %d: no entry twice", run).doesNotHaveDuplicates();
        assertThat(rawIds(file)).as("run %d: no id twice in the raw file", run).doesNotHaveDuplicates();
        Set<String> saved = new HashSet<>();
        for (JournalEntry e : loaded.entries()) {
            if (e instanceof MessageEntry m) {
                saved.add(m.message().id());
            }
        }
        assertThat(saved)
                .as("run %d: every message the host saw end is saved (%s)", run, loaded.problems())
                .containsAll(seenEnded);
        assertThat(loaded.problems())
                .as("run %d: at most the torn last line is reported", run)
                .hasSizeLessThanOrEqualTo(1);
        return insideTurn;
    }

    /** Reopens the killed chat in a new process, checks it is exactly the saved conversation, returns the process. */
    private ReboundProcess reopenAndCheck(Path file, int run) throws Exception {
        LoadedSession loaded = new SessionLoader().load(file);
        List<ChatMessage> kept = new ArrayList<>();
        Set<String> retried = loaded.retriedMessageIds();
        for (JournalEntry e : loaded.entries()) {
            if (e instanceof MessageEntry m && !retried.contains(m.message().id())) {
                kept.add(m.message());
            }
        }
        // A prompt the kill left without a reply stays in the file but is not sent again (nor shown as context).
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < kept.size(); i++) {
            boolean orphan = kept.get(i).role().equals("user")
                    && (i + 1 == kept.size() || kept.get(i + 1).role().equals("user"));
            if (!orphan) {
                expected.add(kept.get(i).id());
            }
        }
        ReboundProcess resumed =
                ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--session", file.toString());
        boolean ok = false;
        try {
            resumed.until(f -> f.path("type").asText().equals("ready"), WAIT);
            resumed.send("{\"id\":\"m\",\"type\":\"get_messages\"}");
            JsonNode messages = resumed.until(f -> "m".equals(f.path("id").asText()), WAIT)
                    .path("data")
                    .path("messages");
            List<String> reopened = new ArrayList<>();
            messages.forEach(m -> reopened.add(m.path("id").asText()));
            assertThat(reopened)
                    .as("run %d: the reopened conversation is the saved one", run)
                    .containsExactlyElementsOf(expected);
            ok = true;
            return resumed;
        } finally {
            if (!ok) {
                resumed.close();
            }
        }
    }

    private static List<String> rawIds(Path file) throws IOException {
        List<String> ids = new ArrayList<>();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        for (String line : Files.readAllLines(file)) {
            try {
                JsonNode node = json.readTree(line);
                if (node.has("id") && !"session".equals(node.path("type").asText())) {
                    ids.add(node.path("id").asText());
                }
            } catch (IOException torn) {
                // a line cut by the kill; the loader reports it
            }
        }
        return ids;
    }

    /** Streams replies slowly in many chunks; one request in three is overloaded, so kills also hit retries. */
    private static final class FlakyStreamingServer extends Dispatcher {
        private final Random random;

        FlakyStreamingServer(Random random) {
            this.random = random;
        }

        @Override
        public synchronized MockResponse dispatch(RecordedRequest request) {
            if (random.nextInt(3) == 0) {
                return ScriptedServer.overloaded();
            }
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < 12; i++) {
                body.append(Sse.chunk("piece " + i + " "));
                if (i == 5) {
                    String echoed = FaultSuiteIT.KEY + " " + FaultSuiteIT.HEADER_SECRET;
                    int cut = echoed.length() / 2;
                    body.append(Sse.chunk(echoed.substring(0, cut))).append(Sse.chunk(echoed.substring(cut) + " "));
                }
            }
            body.append(Sse.finish());
            // About 1.5 s per reply, so kills land while text streams.
            return new MockResponse.Builder()
                    .code(200)
                    .addHeader("Content-Type", "text/event-stream")
                    .body(body.toString())
                    .throttleBody(100, 70, TimeUnit.MILLISECONDS)
                    .build();
        }
    }
}
