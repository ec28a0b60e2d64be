package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.SessionLoader;
import dev.rebound.transcript.UserMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process rows of the fault suite of issue 18 that no other test holds: SIGKILL during a retry wait and during
 * settings saves. (SIGKILL while streaming is {@code CrashSafetyIT}; two processes on one config directory are
 * {@code RpcModeIT.twoProcessesOnOneConfigDirectoryKeepEachOthersChangesAndSeeThem} and
 * {@code SessionsIT.aChatOpenInOneProcessOpensReadOnlyInAnotherSoTheirTurnsNeverInterleave}.) After each kill the
 * files must load whole, a restarted process must start clean and answer, and no secret may be anywhere.
 */
class ProcessFaultIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path configDir;

    private static void kill(ReboundProcess p) throws Exception {
        new ProcessBuilder("kill", "-KILL", Long.toString(p.pid())).start().waitFor();
        p.waitForExit(WAIT);
    }

    private static String type(JsonNode f) {
        return f.path("type").asText();
    }

    @Test
    void aKillDuringARetryWaitLeavesTheChatWholeAndTheFailedAttemptIsNeverSentAgain() throws Exception {
        try (FaultServer server = new FaultServer()) {
            server.enqueue(FaultServer.status(
                    529,
                    "application/json",
                    "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
            FaultSuiteIT.configure(configDir, server.url("/v1"), """
                    "retry": { "enabled": true, "baseDelayMs": 20000, "maxDelayMs": 60000 }""");
            ReboundProcess first = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--no-plugins");
            assertThat(type(first.next(WAIT))).isEqualTo("ready");
            first.send("{\"type\":\"prompt\",\"message\":\"killed while waiting\"}");
            JsonNode waiting = first.until(f -> type(f).equals("auto_retry_start"), WAIT);
            assertThat(waiting.path("delayMs").asLong()).isGreaterThan(5_000);
            first.send("{\"type\":\"get_state\",\"id\":\"s\"}");
            Path chat = Path.of(first.until(f -> "s".equals(f.path("id").asText()), WAIT)
                    .path("data")
                    .path("sessionFile")
                    .asText());
            kill(first);

            LoadedSession loaded = new SessionLoader().load(chat);
            assertThat(loaded.problems()).as("no damage after the kill").isEmpty();
            List<String> saved = new ArrayList<>();
            for (JournalEntry e : loaded.entries()) {
                if (e instanceof MessageEntry m) {
                    saved.add(m.message() instanceof UserMessage u ? "user:" + u.text() : "assistant");
                }
            }
            assertThat(saved).containsExactly("user:killed while waiting", "assistant");

            int before = server.requests.get();
            ReboundProcess second = ReboundProcess.start(
                    configDir, Map.of(), "--mode", "rpc", "--no-plugins", "--session", chat.toString());
            try {
                assertThat(type(second.next(WAIT))).isEqualTo("ready");
                List<JsonNode> turn = second.wholeTurn("after the kill", WAIT);
                JsonNode end = turn.stream()
                        .filter(f -> type(f).equals("message_end"))
                        .reduce((a, b) -> b)
                        .orElseThrow();
                assertThat(end.path("message").path("stopReason").asText()).isEqualTo("stop");
                assertThat(server.requests.get() - before)
                        .as("the new prompt only: the killed chain's attempt is not re-sent")
                        .isEqualTo(1);
                second.closeStdin();
                assertThat(second.waitForExit(WAIT)).isZero();
                SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, List.of(first, second), configDir);
            } finally {
                second.close();
            }
        }
    }

    /** The temporary copies a settings save in progress has next to settings.json ({@code .settings.json.<n>.tmp}). */
    private List<String> temporaryCopies() throws Exception {
        try (Stream<Path> files = Files.list(configDir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.startsWith(".settings.json.") && n.endsWith(".tmp"))
                    .toList();
        }
    }

    /**
     * SIGKILLs while settings saves run back to back. The process gets a burst of saves it has not answered yet when
     * the kill lands, so that most kills hit a save; whether one did is seen in the temporary copy it leaves. The test
     * kills {@code -Dfault.settingsKills} times (3 by default) and then on, at most 30 times in all, until the last
     * kill left a copy: the next process's save must remove it.
     */
    @Test
    void killsDuringSettingsSavesLeaveAValidSettingsFileWithAnAcknowledgedValue() throws Exception {
        Random random = new Random(1818);
        try (FaultServer server = new FaultServer()) {
            FaultSuiteIT.configure(configDir, server.url("/v1"), "\"retry\": { \"maxRetries\": 3 }");
            int kills = Integer.getInteger("fault.settingsKills", 3);
            List<ReboundProcess> processes = new ArrayList<>();
            List<Boolean> leftACopy = new ArrayList<>();
            for (int run = 0; run < 30 && (run < kills || !leftACopy.getLast()); run++) {
                ReboundProcess p = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--no-plugins");
                processes.add(p);
                assertThat(type(p.next(WAIT))).isEqualTo("ready");
                List<Integer> acknowledged = new ArrayList<>();
                int sent = 0;
                long killAt = System.nanoTime() + random.nextInt(50, 400) * 1_000_000L;
                while (System.nanoTime() < killAt) {
                    int value = run * 1000 + sent;
                    p.send("{\"type\":\"set_settings\",\"id\":\"" + value + "\",\"patch\":{\"retry\":{\"maxRetries\":"
                            + (value % 49) + "}}}");
                    sent++;
                    JsonNode answer = p.until(f -> type(f).equals("response"), WAIT);
                    if (answer.path("success").asBoolean()) {
                        acknowledged.add(answer.path("id").asInt());
                    }
                }
                // A burst of saves in flight when the kill lands, all of the value 49.
                StringBuilder burst = new StringBuilder();
                for (int i = 0; i < 30; i++) {
                    burst.append(
                            "{\"type\":\"set_settings\",\"id\":\"x\",\"patch\":{\"retry\":{\"maxRetries\":49}}}\n");
                }
                p.sendRaw(burst.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                Thread.sleep(random.nextInt(0, 15));
                ProcessHandle.of(p.pid()).orElseThrow().destroyForcibly();
                p.waitForExit(WAIT);
                leftACopy.add(!temporaryCopies().isEmpty());
                assertThat(acknowledged)
                        .as("run %d: saves were acknowledged before the kill", run)
                        .isNotEmpty();
                JsonNode settings =
                        JSON.readTree(configDir.resolve("settings.json").toFile());
                int stored = settings.path("retry").path("maxRetries").asInt(-1);
                assertThat(stored)
                        .as(
                                "run %d: the file is whole JSON holding the last acknowledged value or the one in flight",
                                run)
                        .isIn(acknowledged.getLast() % 49, 49);
                assertThat(settings.path("providers")
                                .path("local")
                                .path("baseUrl")
                                .asText())
                        .as("run %d: the rest of the file is intact", run)
                        .startsWith("http://");
            }
            assertThat(leftACopy.getLast())
                    .as(
                            "the last kill landed inside a save and left its temporary copy (kills that did: %s)",
                            leftACopy)
                    .isTrue();
            try (Stream<Path> left = Files.list(configDir)) {
                assertThat(left.map(f -> f.getFileName().toString()))
                        .as("no backup of a broken file: the file was never broken")
                        .noneMatch(n -> n.startsWith("settings.json.bak"));
            }
            ReboundProcess last = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--no-plugins");
            try {
                assertThat(type(last.next(WAIT))).isEqualTo("ready");
                List<JsonNode> turn = last.wholeTurn("after the kills", WAIT);
                assertThat(turn)
                        .noneMatch(f -> type(f).equals("notice")
                                && f.path("level").asText().equals("error"));
                assertThat(temporaryCopies())
                        .as("the killed save's copy is still there before the next save")
                        .isNotEmpty();
                last.send("{\"type\":\"set_settings\",\"id\":\"last\",\"patch\":{\"retry\":{\"maxRetries\":5}}}");
                assertThat(last.until(f -> "last".equals(f.path("id").asText()), WAIT)
                                .path("success")
                                .asBoolean())
                        .isTrue();
                try (Stream<Path> left = Files.list(configDir)) {
                    assertThat(left.map(f -> f.getFileName().toString()))
                            .as("the next save removed the temporary copies the killed saves left (they hold secrets)")
                            .noneMatch(n -> n.startsWith(".settings.json.") && n.endsWith(".tmp"));
                }
                last.closeStdin();
                assertThat(last.waitForExit(WAIT)).isZero();
                processes.add(last);
                SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, processes, configDir);
            } finally {
                last.close();
            }
        }
    }
}
