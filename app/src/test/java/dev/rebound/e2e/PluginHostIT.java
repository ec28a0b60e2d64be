package dev.rebound.e2e;

import static dev.rebound.e2e.ScriptedServer.overloaded;
import static dev.rebound.e2e.ScriptedServer.usageLimit;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin host end to end: the real jar in RPC mode loads real PF4J archives, built by this test from
 * {@code src/it-plugins}, from its config folder and {@code --plugins-dir}, and runs scripted chats against a
 * loopback server.
 */
class PluginHostIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String KEY_A = "sk-ant-aaaaaaaaaaaaaaaa";
    private static final String KEY_B = "sk-ant-bbbbbbbbbbbbbbbb";

    /** recording.zip alone. */
    @TempDir
    static Path recordingOnly;
    /** Every hostile plugin, a refused one, a duplicate, a switched-off one and broken archives. */
    @TempDir
    static Path hostile;

    @TempDir
    Path configDir;

    private MockWebServer server;
    private final ScriptedServer script = new ScriptedServer();
    private final List<ReboundProcess> processes = new ArrayList<>();

    @BeforeAll
    static void buildArchives() throws IOException {
        PluginFixtures.recordingZip(recordingOnly);
        PluginFixtures.hostileSet(hostile);
    }

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.setDispatcher(script);
        server.start();
        PluginFixtures.configure(configDir, server.url("/v1").toString(), KEY_A, KEY_B);
    }

    @AfterEach
    void stop() throws IOException {
        processes.forEach(ReboundProcess::close);
        server.close();
    }

    @Test
    void theRecordingPluginReceivesExactlyTheSessionsEventsInOrderThroughACredentialSwitchAndRetries()
            throws Exception {
        script.on("claude@" + KEY_A, usageLimit("1800"));
        script.on("claude@" + KEY_B, overloaded(), overloaded());
        ReboundProcess rebound = start("--plugins-dir", recordingOnly.toString());

        List<JsonNode> turn = wholeTurn(rebound, "hi");
        assertThat(script.log)
                .containsExactly("claude@" + KEY_A, "claude@" + KEY_B, "claude@" + KEY_B, "claude@" + KEY_B);
        assertThat(turn)
                .extracting(PluginHostIT::type)
                .containsSubsequence(
                        "credential_switched",
                        "auto_retry_start",
                        "auto_retry_start",
                        "auto_retry_start",
                        "auto_retry_end",
                        "retry_chain_end");
        Map<String, JsonNode> plugins = plugins(rebound);
        assertThat(plugins).containsOnlyKeys("recording");
        assertThat(plugins.get("recording").path("state").asText()).isEqualTo("active");
        assertThat(plugins.get("recording").path("version").asText()).isEqualTo("1.0.0");

        List<String> expected = exitAndSignatures(rebound);
        List<String> recorded = Files.readAllLines(recordingFile("recording"));
        assertThat(recorded).last().isEqualTo("closed");
        assertThat(recorded.subList(0, recorded.size() - 1)).containsExactlyElementsOf(expected);
        assertThat(Files.readString(configDir.resolve("plugin-data/recording/context.txt")))
                .startsWith("recording 0.2.0-SNAPSHOT {note=hello} [model, providers, retry, plugins")
                .doesNotContain(KEY_A);
    }

    @Test
    void withEveryHostilePluginLoadedTheChatCompletesTheHealthyPluginGetsEverythingAndTheBadOnesAreReported()
            throws Exception {
        Path configPlugins = Files.createDirectories(configDir.resolve("plugins"));
        Files.copy(recordingOnly.resolve("recording.zip"), configPlugins.resolve("recording.zip"));
        // The canary secrets ride along, and the reply echoes the key cut between two events: no plugin, however
        // hostile, may make a piece of one land anywhere.
        SecretSweep.addToSettings(configDir, server.url("/v1").toString());
        SecretSweep.writeCredentials(configDir, "anthropic", "canary", FaultSuiteIT.KEY);
        List<String> words = new ArrayList<>(
                IntStream.range(0, 1100).mapToObj(i -> "w" + i + " ").toList());
        words.add(550, FaultSuiteIT.KEY.substring(0, 12));
        words.add(551, FaultSuiteIT.KEY.substring(12) + " ");
        script.on("claude", Sse.reply(words.toArray(String[]::new)));
        ReboundProcess rebound = start("--plugins-dir", hostile.toString());

        List<JsonNode> turn = wholeTurn(rebound, "hi");
        JsonNode end = turn.stream()
                .filter(f -> type(f).equals("message_end"))
                .toList()
                .getLast();
        assertThat(end.path("message").path("stopReason").asText()).isEqualTo("stop");
        assertThat(end.path("message").path("content").get(0).path("text").asText())
                .startsWith("w0 w1 ")
                .endsWith("w1099 ");

        Map<String, JsonNode> plugins = awaitPlugins(
                rebound,
                p -> state(p, "blocks").equals("stuck") && state(p, "throws").equals("disabled"));
        assertThat(plugins.keySet())
                .as("config folder first, then --plugins-dir, by file name")
                .containsExactly(
                        "recording",
                        "bad-index",
                        "bad-requires",
                        "blocks",
                        "corrupt.jar",
                        "flood",
                        "linkage",
                        "recording#duplicate",
                        "switched-off",
                        "throws");
        assertThat(plugins.get("recording").path("state").asText()).isEqualTo("active");
        assertThat(plugins.get("recording").path("dropped").asLong()).isZero();
        assertThat(plugins.get("recording").path("archive").asText()).endsWith("recording.zip");
        assertState(plugins, "recording#duplicate", "duplicate", "recording-again.jar) is ignored");
        assertState(plugins, "throws", "disabled", "java.lang.IllegalStateException: throws plugin refuses");
        assertThat(plugins.get("throws").path("failures").asLong()).isEqualTo(10);
        assertState(plugins, "linkage", "disabled", "java.lang.NoClassDefFoundError: com/example/MissingAtRunTime");
        assertState(plugins, "blocks", "stuck", "a call has not returned for");
        assertThat(plugins.get("blocks").path("dropped").asLong())
                .as("the reply alone is 1100 events")
                .isPositive();
        assertThat(plugins.get("flood").path("state").asText()).isIn("active", "stuck");
        assertState(
                plugins,
                "bad-requires",
                "refused",
                "it requires Rebound >=99.0.0 but this is Rebound 0.2.0-SNAPSHOT (compared as 0.2.0)");
        assertState(plugins, "switched-off", "disabled", "disabled in settings");
        assertState(plugins, "bad-index", "failed", "it has no SessionEventListener that Rebound could load");
        assertState(plugins, "corrupt.jar", "invalid", "no readable plugin descriptor");

        List<String> notices = rebound.drain().stream()
                .filter(f -> type(f).equals("notice"))
                .map(f -> f.path("message").asText())
                .toList();
        assertThat(notices)
                .anyMatch(n -> n.startsWith("Plugin bad-requires 1.0.0 was not loaded: it requires"))
                .anyMatch(n -> n.startsWith("The plugin archive ") && n.contains("corrupt.jar was skipped"))
                .anyMatch(n -> n.startsWith("Plugin recording: another archive with the id recording"))
                .anyMatch(n -> n.startsWith("Plugin throws was disabled after 10 failures"))
                .noneMatch(n -> n.contains("switched-off"));

        List<String> expected = exitAndSignatures(rebound);
        List<String> recorded = Files.readAllLines(recordingFile("recording"));
        assertThat(recorded.subList(0, recorded.size() - 1)).containsExactlyElementsOf(expected);
        assertThat(expected).hasSizeGreaterThan(1100);
        assertThat(configDir.resolve("plugin-data/switched-off")).doesNotExist();
        assertThat(end.path("message").path("content").get(0).path("text").asText())
                .contains("w549 [redacted] w550 ");
        SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, rebound, configDir);
    }

    @Test
    void noPluginsLoadsNoneEvenWithAPluginsFolder() throws Exception {
        Path configPlugins = Files.createDirectories(configDir.resolve("plugins"));
        Files.copy(recordingOnly.resolve("recording.zip"), configPlugins.resolve("recording.zip"));
        ReboundProcess rebound = start("--plugins-dir", hostile.toString(), "--no-plugins");
        wholeTurn(rebound, "hi");
        assertThat(plugins(rebound)).isEmpty();
        exitAndSignatures(rebound);
        assertThat(configDir.resolve("plugin-data")).doesNotExist();
    }

    @Test
    void printModeLoadsThePluginsTooAndTellsWhatWasNotLoadedOnStderr() throws Exception {
        Path configPlugins = Files.createDirectories(configDir.resolve("plugins"));
        Files.copy(recordingOnly.resolve("recording.zip"), configPlugins.resolve("recording.zip"));
        Files.copy(hostile.resolve("bad-requires.jar"), configPlugins.resolve("bad-requires.jar"));
        ReboundProcess rebound = ReboundProcess.start(false, configDir, Map.of(), "-p", "hi");
        processes.add(rebound);

        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.stdout()).isEqualTo("reply from claude\n");
        assertThat(rebound.stderr())
                .contains("rebound: warning: Plugin bad-requires 1.0.0 was not loaded: it "
                        + "requires Rebound >=99.0.0");
        List<String> recorded = Files.readAllLines(recordingFile("recording"));
        assertThat(recorded)
                .anyMatch(l -> l.startsWith("message_update ") && l.endsWith(" delta=reply from claude"))
                .anyMatch(l -> l.startsWith("agent_end ") && l.endsWith(" willRetry=false"))
                .last()
                .isEqualTo("closed");
    }

    @Test
    void aPluginsDirThatIsNotAFolderIsAUsageError() throws Exception {
        ReboundProcess rebound = ReboundProcess.start(
                false,
                configDir,
                Map.of(),
                "--mode",
                "rpc",
                "--plugins-dir",
                configDir.resolve("nowhere").toString());
        processes.add(rebound);
        assertThat(rebound.waitForExit(WAIT)).isEqualTo(2);
        assertThat(rebound.stderr()).contains("--plugins-dir " + configDir.resolve("nowhere") + ": no such folder");
    }

    @Test
    void aTurnTakesAboutAsLongWithTheHostilePluginsAsWithoutPlugins() throws Exception {
        long without = medianTurnNanos(start("--no-plugins"));
        long with = medianTurnNanos(start("--plugins-dir", hostile.toString()));
        assertThat(with)
                .as("median turn with hostile plugins %d µs, without %d µs", with / 1000, without / 1000)
                .isLessThan(3 * without);
    }

    private long medianTurnNanos(ReboundProcess rebound) throws Exception {
        List<Long> times = PluginFixtures.turnNanos(rebound, script, 4, 8, 50);
        exitAndSignatures(rebound);
        return times.get(times.size() / 2);
    }

    private ReboundProcess start(String... args) throws Exception {
        ReboundProcess rebound = PluginFixtures.startRpc(configDir, args);
        processes.add(rebound);
        return rebound;
    }

    private static List<JsonNode> wholeTurn(ReboundProcess rebound, String message) throws Exception {
        return PluginFixtures.wholeTurn(rebound, message);
    }

    /** get_plugins as id → plugin, in its order; a duplicate's id gets {@code #duplicate}, an invalid archive is its file name. */
    private static Map<String, JsonNode> plugins(ReboundProcess rebound) throws Exception {
        String id = "p" + System.nanoTime();
        rebound.send("{\"id\":\"" + id + "\",\"type\":\"get_plugins\"}");
        JsonNode response = rebound.until(f -> id.equals(f.path("id").asText()), WAIT);
        assertThat(response.path("success").asBoolean()).isTrue();
        Map<String, JsonNode> byId = new LinkedHashMap<>();
        for (JsonNode plugin : response.path("data").path("plugins")) {
            String key = plugin.path("id").asText()
                    + ("duplicate".equals(plugin.path("state").asText()) ? "#duplicate" : "");
            byId.put(key, plugin);
        }
        return byId;
    }

    private static Map<String, JsonNode> awaitPlugins(
            ReboundProcess rebound, java.util.function.Predicate<Map<String, JsonNode>> ready) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            Map<String, JsonNode> plugins = plugins(rebound);
            if (ready.test(plugins) || System.nanoTime() > deadline) {
                return plugins;
            }
            Thread.sleep(200);
        }
    }

    private static String state(Map<String, JsonNode> plugins, String id) {
        JsonNode plugin = plugins.get(id);
        return plugin == null ? "" : plugin.path("state").asText();
    }

    private static void assertState(Map<String, JsonNode> plugins, String id, String state, String failure) {
        JsonNode plugin = plugins.get(id);
        assertThat(plugin).as("plugin %s in %s", id, plugins).isNotNull();
        assertThat(plugin.path("state").asText())
                .as("state of %s: %s", id, plugin)
                .isEqualTo(state);
        assertThat(plugin.path("failure").asText()).as("failure of %s", id).contains(failure);
    }

    /** Ends input, waits for a clean exit, and returns the session's event frames as the recording plugin writes them. */
    private static List<String> exitAndSignatures(ReboundProcess rebound) throws Exception {
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        return rebound.drain().stream()
                .filter(f -> !type(f).equals("ready") && !type(f).equals("response"))
                .map(PluginHostIT::signature)
                .toList();
    }

    /**
     * The line the recording plugin writes for an event, computed from its RPC frame: the plugin's session and turn
     * must be the RPC frame's.
     */
    private static String signature(JsonNode f) {
        String type = type(f);
        String turn = f.hasNonNull("turnId") ? f.path("turnId").asText() : "null";
        return type + " session=" + f.path("sessionId").asText() + " turn=" + turn
                + switch (type) {
                    case "agent_start" -> " turnId=" + f.path("turnId").asText();
                    case "agent_end" ->
                        " turnId=" + f.path("turnId").asText() + " willRetry="
                                + f.path("willRetry").asText();
                    case "message_start", "message_end" ->
                        " id=" + f.path("message").path("id").asText();
                    case "message_update" ->
                        " id=" + f.path("messageId").asText() + " delta="
                                + f.path("delta").asText();
                    case "auto_retry_start" ->
                        " attempt=" + f.path("attempt").asText() + " delayMs="
                                + f.path("delayMs").asText();
                    case "auto_retry_end" ->
                        " attempt=" + f.path("attempt").asText() + " success="
                                + f.path("success").asText();
                    case "retry_chain_end" -> " turnId=" + f.path("turnId").asText();
                    case "credential_switched" ->
                        " from=" + f.path("from").asText() + " to="
                                + f.path("to").asText();
                    case "notice" -> " message=" + f.path("message").asText();
                    default -> "";
                };
    }

    private Path recordingFile(String id) {
        return configDir.resolve("plugin-data").resolve(id).resolve("events.txt");
    }

    private static String type(JsonNode f) {
        return f.path("type").asText();
    }
}
