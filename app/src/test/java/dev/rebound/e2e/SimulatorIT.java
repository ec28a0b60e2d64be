package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The built-in simulator end to end: the real jar in RPC mode with an empty config directory — no settings, no
 * credentials, no network — against the simulator it starts in-process, failures scripted with {@code simulate}.
 */
class SimulatorIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path configDir;

    private ReboundProcess rebound;

    @AfterEach
    void stop() {
        if (rebound != null) {
            rebound.close();
        }
    }

    private static String type(JsonNode f) {
        return f.path("type").asText();
    }

    private void startRebound() throws Exception {
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        assertThat(type(rebound.next(WAIT))).isEqualTo("ready");
    }

    /** Sends a command with an id and returns its response, which must be a success. */
    private JsonNode command(String id, String json) throws Exception {
        rebound.send("{\"id\":\"" + id + "\"," + json.substring(1));
        JsonNode response = rebound.until(f -> id.equals(f.path("id").asText()), WAIT);
        assertThat(response.path("success").asBoolean()).as(response.toString()).isTrue();
        return response.path("data");
    }

    private List<JsonNode> promptAndFinish(String message) throws Exception {
        rebound.send("{\"type\":\"prompt\",\"message\":\"" + message + "\"}");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        return rebound.drain();
    }

    private static List<JsonNode> ofType(List<JsonNode> frames, String type) {
        return frames.stream().filter(f -> type(f).equals(type)).toList();
    }

    @Test
    void withNoConfigurationAtAllAPromptStreamsAReplyFromTheSimulator() throws Exception {
        startRebound();
        JsonNode notice = rebound.next(WAIT);
        assertThat(type(notice)).isEqualTo("notice");
        assertThat(notice.path("level").asText()).isEqualTo("info");
        assertThat(notice.path("message").asText())
                .contains("built-in simulator", "Rebound Simulator (offline)", "settings.json", "docs/settings.md");
        JsonNode models = command("m", "{\"type\":\"get_available_models\"}").path("models");
        assertThat(models.toString())
                .isEqualTo("[{\"provider\":\"simulator\",\"id\":\"rebound-simulator\","
                        + "\"contextWindow\":128000,\"name\":\"Rebound Simulator (offline)\"}]");
        command("s", "{\"type\":\"simulate\",\"tokensPerSecond\":0}");

        List<JsonNode> frames = promptAndFinish("What is backoff?");

        List<JsonNode> updates = ofType(frames, "message_update");
        assertThat(updates).hasSizeGreaterThan(2);
        JsonNode end = ofType(frames, "message_end").getLast().path("message");
        assertThat(end.path("stopReason").asText()).isEqualTo("stop");
        assertThat(end.path("provider").asText()).isEqualTo("simulator");
        assertThat(end.path("api").asText()).isEqualTo("simulator");
        assertThat(end.path("credential").asText()).isEqualTo("primary");
        String text = updates.stream().map(u -> u.path("delta").asText()).reduce("", String::concat);
        assertThat(text).startsWith("## ").contains("\n### 1. ");
        assertThat(ofType(frames, "agent_end").getLast().path("willRetry").asBoolean())
                .isFalse();
        assertThat(configDir.resolve("settings.json")).doesNotExist();
        assertThat(configDir.resolve("credentials.json")).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "anthropic-messages, 529 Overloaded: Overloaded (type: overloaded_error)",
        "openai-responses, 503 Service Unavailable: ",
        "google-gemini, 503 Service Unavailable: The model is overloaded. Please try again later. (type: UNAVAILABLE",
    })
    void theBuiltInSimulatorSpokenToInAnotherFormatFailsInThatProvidersOwnShape(String format, String error)
            throws Exception {
        java.nio.file.Files.writeString(configDir.resolve("settings.json"), """
                { "model": "sim/sim-model",
                  "providers": { "sim": { "api": "simulator", "format": "%s", "models": [ { "id": "sim-model" } ] } },
                  "retry": { "baseDelayMs": 10 } }
                """.formatted(format));
        startRebound();
        command("s", "{\"type\":\"simulate\",\"tokensPerSecond\":0,\"steps\":[{\"fault\":\"overload\"}]}");

        List<JsonNode> frames = promptAndFinish("hi");

        JsonNode retry = ofType(frames, "auto_retry_start").getFirst();
        assertThat(retry.path("errorMessage").asText()).startsWith(error);
        JsonNode answered = ofType(frames, "message_end").getLast().path("message");
        assertThat(answered.path("stopReason").asText()).isEqualTo("stop");
        assertThat(answered.path("api").asText()).isEqualTo(format);
        assertThat(ofType(frames, "auto_retry_end").getFirst().path("success").asBoolean())
                .isTrue();
    }

    @Test
    void aScriptedTripleOverloadProducesExactlyThePolicysRetryEvents() throws Exception {
        startRebound();
        JsonNode queued = command(
                        "s",
                        "{\"type\":\"simulate\",\"tokensPerSecond\":0,"
                                + "\"steps\":[{\"fault\":\"overload\",\"times\":3}]}")
                .path("queued");
        assertThat(queued).hasSize(3);

        List<JsonNode> frames = promptAndFinish("hi");

        List<String> retryFrames = frames.stream()
                .map(SimulatorIT::type)
                .filter(t -> t.startsWith("auto_retry") || t.equals("agent_end") || t.equals("retry_chain_end"))
                .toList();
        assertThat(retryFrames)
                .containsExactly(
                        "agent_end",
                        "auto_retry_start",
                        "agent_end",
                        "auto_retry_start",
                        "agent_end",
                        "auto_retry_start",
                        "auto_retry_end",
                        "retry_chain_end",
                        "agent_end");
        assertThat(ofType(frames, "agent_end"))
                .extracting(f -> f.path("willRetry").asBoolean())
                .containsExactly(true, true, true, false);
        List<JsonNode> starts = ofType(frames, "auto_retry_start");
        assertThat(starts).extracting(f -> f.path("attempt").asInt()).containsExactly(1, 2, 3);
        long[][] delayBounds = {{375, 500}, {750, 1000}, {1500, 2000}};
        for (int i = 0; i < 3; i++) {
            JsonNode start = starts.get(i);
            assertThat(start.path("delayMs").asLong()).isBetween(delayBounds[i][0], delayBounds[i][1]);
            assertThat(start.path("errorKind").asText()).isEqualTo("transient");
            assertThat(start.path("model").asText()).isEqualTo("simulator/rebound-simulator");
            assertThat(start.path("credential").asText()).isEqualTo("primary");
            assertThat(start.path("errorMessage").asText())
                    .isEqualTo("529 Overloaded: Overloaded " + "(type: overloaded_error)");
        }
        assertThat(EventFrames.withoutScope(ofType(frames, "auto_retry_end").getFirst()))
                .isEqualTo("{\"type\":\"auto_retry_end\",\"success\":true,\"attempt\":3,\"reason\":\"succeeded\"}");
        JsonNode record = ofType(frames, "retry_chain_end").getFirst();
        assertThat(record.path("attempts")).hasSize(3);
        assertThat(record.path("attempts").get(0).path("httpStatus").asInt()).isEqualTo(529);
        assertThat(ofType(frames, "message_end")
                        .getLast()
                        .path("message")
                        .path("stopReason")
                        .asText())
                .isEqualTo("stop");
        assertThat(configDir.resolve("settings.json")).doesNotExist();
    }

    @Test
    void aScriptedUsageLimitOnTheFirstKeySwitchesToTheSecondAndTheReplyArrives() throws Exception {
        startRebound();
        command(
                "s",
                "{\"type\":\"simulate\",\"tokensPerSecond\":0,\"steps\":[{\"fault\":\"usage-limit\","
                        + "\"credential\":\"sim-key-primary\",\"resetsInSeconds\":60}]}");

        List<JsonNode> frames = promptAndFinish("hi");

        JsonNode switched = ofType(frames, "credential_switched").getFirst();
        assertThat(EventFrames.withoutScope(switched))
                .isEqualTo("{\"type\":\"credential_switched\","
                        + "\"provider\":\"simulator\",\"from\":\"primary\",\"to\":\"secondary\"}");
        JsonNode agentStart = ofType(frames, "agent_start").getFirst();
        assertThat(switched.path("sessionId").asText())
                .isEqualTo(agentStart.path("sessionId").asText());
        assertThat(switched.path("turnId").asText())
                .isEqualTo(agentStart.path("turnId").asText());
        JsonNode start = ofType(frames, "auto_retry_start").getFirst();
        assertThat(start.path("errorKind").asText()).isEqualTo("usage_limit");
        assertThat(start.path("delayMs").asLong()).isZero();
        assertThat(ofType(frames, "auto_retry_end").getFirst().path("success").asBoolean())
                .isTrue();
        JsonNode reply = ofType(frames, "message_end").getLast().path("message");
        assertThat(reply.path("stopReason").asText()).isEqualTo("stop");
        assertThat(reply.path("credential").asText()).isEqualTo("secondary");
        assertThat(frames.stream()
                        .filter(f -> !f.has("id"))
                        .map(JsonNode::toString)
                        .toList())
                .noneMatch(f -> f.contains("sim-key-"));
    }

    @Test
    void aCutAfterTextIsNotRetried() throws Exception {
        startRebound();
        command(
                "s",
                "{\"type\":\"simulate\",\"tokensPerSecond\":0,\"steps\":[{\"fault\":\"cut-after\","
                        + "\"chars\":40}]}");

        List<JsonNode> frames = promptAndFinish("hi");

        assertThat(ofType(frames, "auto_retry_start")).isEmpty();
        assertThat(ofType(frames, "agent_end"))
                .singleElement()
                .satisfies(f -> assertThat(f.path("willRetry").asBoolean()).isFalse());
        JsonNode failed = ofType(frames, "message_end").getLast().path("message");
        assertThat(failed.path("stopReason").asText()).isEqualTo("error");
        assertThat(failed.path("errorMessage").asText())
                .startsWith("The stream ended before the reply was complete")
                .contains("40 characters had arrived");
        assertThat(ofType(frames, "message_update").stream()
                        .mapToInt(u -> u.path("delta").asText().length())
                        .sum())
                .isEqualTo(40);
    }

    @Test
    void printModeWithAScenarioFileShowsTheNoticeTheRetriesAndTheReply() throws Exception {
        Files.writeString(configDir.resolve("settings.json"), "{ \"retry\": { \"baseDelayMs\": 20 } }");
        Path scenario = configDir.resolve("scenario.json");
        Files.writeString(scenario, "{ \"steps\": [ { \"fault\": \"overload\", \"times\": 3 } ] }");

        rebound = ReboundProcess.start(false, configDir, Map.of(), "-p", "hi", "--scenario", scenario.toString());

        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.stdout()).startsWith("## ");
        assertThat(rebound.stderr().lines().toList())
                .filteredOn(l -> l.startsWith("rebound: retrying"))
                .hasSize(3)
                .allSatisfy(l -> assertThat(l).endsWith(": 529 Overloaded: Overloaded (type: overloaded_error)"));
        assertThat(rebound.stderr()).contains("rebound: info: No provider is configured");
    }

    @Test
    void aSettingsFileThatIsNotJsonFailsPrintModeWithItsErrorInsteadOfACannedReply() throws Exception {
        Files.writeString(configDir.resolve("settings.json"), "{ \"providers\": ");

        rebound = ReboundProcess.start(false, configDir, Map.of(), "-p", "hi");

        assertThat(rebound.waitForExit(WAIT)).isNotZero();
        assertThat(rebound.stdout()).isEmpty();
        assertThat(rebound.stderr())
                .contains("rebound: error: ", "is not valid JSON at line 1")
                .doesNotContain("No provider is configured", "built-in simulator");
    }

    @Test
    void aMalformedScenarioFileStopsTheStartWithTheReason() throws Exception {
        Path scenario = configDir.resolve("scenario.json");
        Files.writeString(scenario, "[ \"overload\", { \"fault\": \"delay\", \"ms\": \"soon\" } ]");

        rebound = ReboundProcess.start(false, configDir, Map.of(), "-p", "hi", "--scenario", scenario.toString());

        assertThat(rebound.waitForExit(WAIT)).isEqualTo(2);
        assertThat(rebound.stderr()).contains("--scenario " + scenario, "steps[1].ms: must be a whole number");
    }

    @Test
    void aScenarioWhenNoProviderUsesTheSimulatorIsAUsageErrorSayingWhy() throws Exception {
        Files.writeString(
                configDir.resolve("settings.json"),
                "{ \"providers\": { \"openai\": { \"api\": "
                        + "\"openai-completions\", \"baseUrl\": \"http://127.0.0.1:9/v1\", \"models\": [ { \"id\": "
                        + "\"gpt-4.1-mini\" } ] } } }");
        Path scenario = configDir.resolve("scenario.json");
        Files.writeString(scenario, "[ \"overload\" ]");

        rebound = ReboundProcess.start(false, configDir, Map.of(), "-p", "hi", "--scenario", scenario.toString());

        assertThat(rebound.waitForExit(WAIT)).isEqualTo(2);
        assertThat(rebound.stdout()).isEmpty();
        assertThat(rebound.stderr())
                .contains(
                        "rebound: --scenario " + scenario + ": no provider of this session "
                                + "uses the built-in simulator (settings.json configures [openai]), so the scenario would never run.");
    }

    @Test
    void aMissingScenarioFileSaysNoSuchFileAndNamesThePathOnce() throws Exception {
        Path scenario = configDir.resolve("nope.json");

        rebound = ReboundProcess.start(false, configDir, Map.of(), "-p", "hi", "--scenario", scenario.toString());

        assertThat(rebound.waitForExit(WAIT)).isEqualTo(2);
        String stderr = rebound.stderr();
        assertThat(stderr).contains("rebound: --scenario " + scenario + ": no such file\n");
        assertThat(stderr.split(java.util.regex.Pattern.quote(scenario.toString()), -1))
                .hasSize(2);
    }

    @Test
    void withARealProviderConfiguredTheSimulatorNeverOpensAPort() throws Exception {
        Files.writeString(
                configDir.resolve("settings.json"),
                "{ \"retry\": { \"maxRetries\": 0 }, \"providers\": { "
                        + "\"openai\": { \"api\": \"openai-completions\", \"baseUrl\": \"http://127.0.0.1:9/v1\", "
                        + "\"models\": [ { \"id\": \"gpt-4.1-mini\" } ] } } }");
        startRebound();
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.until(f -> type(f).equals("agent_end"), WAIT);

        JsonNode state = command("g", "{\"type\":\"get_simulation\"}");

        assertThat(state.path("baseUrl").isNull()).as(state.toString()).isTrue();
        assertThat(command("m", "{\"type\":\"get_available_models\"}")
                        .path("models")
                        .toString())
                .doesNotContain("simulator");
    }

    @Test
    void clearSimulationLiftsTheBlocksOfTheFakeKeysAndNoStateFileIsWritten() throws Exception {
        startRebound();
        command(
                "s",
                "{\"type\":\"simulate\",\"tokensPerSecond\":0,\"steps\":[{\"fault\":\"usage-limit\","
                        + "\"credential\":\"sim-key-primary\",\"resetsInSeconds\":300}]}");
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.until(f -> type(f).equals("agent_end") && !f.path("willRetry").asBoolean(), WAIT);

        command("c", "{\"type\":\"clear_simulation\"}");
        command("n", "{\"type\":\"new_session\"}");
        List<JsonNode> frames = promptAndFinish("hi again");

        assertThat(ofType(frames, "message_end")
                        .getLast()
                        .path("message")
                        .path("credential")
                        .asText())
                .isEqualTo("primary");
        assertThat(configDir.resolve("state").resolve("credential-blocks.json")).doesNotExist();
    }

    @Test
    void aUsageLimitOnBothFakeKeysDoesNotMakeTheNextRunWait() throws Exception {
        startRebound();
        command(
                "s",
                "{\"type\":\"simulate\",\"tokensPerSecond\":0,\"steps\":[{\"fault\":\"usage-limit\","
                        + "\"resetsInSeconds\":300,\"times\":2}]}");
        rebound.send("{\"type\":\"prompt\",\"message\":\"hi\"}");
        rebound.until(
                f -> type(f).equals("auto_retry_start") && f.path("delayMs").asLong() > 60_000, WAIT);
        rebound.close();

        startRebound();
        command("s", "{\"type\":\"simulate\",\"tokensPerSecond\":0}");
        List<JsonNode> frames = promptAndFinish("hi");

        assertThat(ofType(frames, "auto_retry_start")).isEmpty();
        assertThat(ofType(frames, "message_end")
                        .getLast()
                        .path("message")
                        .path("stopReason")
                        .asText())
                .isEqualTo("stop");
    }

    @Test
    void aMalformedSimulateCommandIsRefusedWholeWithItsReason() throws Exception {
        startRebound();
        rebound.send("{\"id\":\"bad\",\"type\":\"simulate\",\"steps\":[\"overload\",{\"fault\":\"stall\","
                + "\"after\":3}]}");
        JsonNode response = rebound.until(f -> "bad".equals(f.path("id").asText()), WAIT);

        assertThat(response.path("success").asBoolean()).isFalse();
        assertThat(response.path("error").asText())
                .isEqualTo("The scenario was refused, nothing was queued: "
                        + "steps[1].after: not a field of 'stall'; its fields are [afterChars]");
        rebound.send("{\"id\":\"fast\",\"type\":\"simulate\",\"tokensPerSecond\":1e22}");
        JsonNode tooFast = rebound.until(f -> "fast".equals(f.path("id").asText()), WAIT);
        assertThat(tooFast.path("success").asBoolean()).isFalse();
        assertThat(tooFast.path("error").asText())
                .contains("tokens per second must be from 0 (as fast as possible) "
                        + "to 1,000,000, not 10000000000000000000000");
        JsonNode state = command("g", "{\"type\":\"get_simulation\"}");
        assertThat(state.path("queued")).isEmpty();
        assertThat(state.path("tokensPerSecond").asDouble()).isEqualTo(120);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }
}
