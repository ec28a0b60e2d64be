package dev.rebound.e2e;

import static dev.rebound.e2e.ScriptedServer.insufficientQuota;
import static dev.rebound.e2e.ScriptedServer.overloaded;
import static dev.rebound.e2e.ScriptedServer.refusal;
import static dev.rebound.e2e.ScriptedServer.usageLimit;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Credentials, usage limits and model fallback end to end: the real jar over RPC, a server answering per model and key. */
class FallbackIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String KEY_A = "sk-ant-aaaaaaaaaaaaaaaa";
    private static final String KEY_B = "sk-ant-bbbbbbbbbbbbbbbb";

    @TempDir
    Path configDir;

    private MockWebServer server;
    private final ScriptedServer script = new ScriptedServer();
    private ReboundProcess rebound;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.setDispatcher(script);
        server.start();
    }

    @AfterEach
    void stop() throws IOException {
        if (rebound != null) {
            rebound.close();
        }
        server.close();
    }

    private void configure(String retry, boolean twoKeys) throws IOException {
        String url = server.url("/v1").toString();
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "anthropic/claude",
                  "providers": {
                    "anthropic": { "api": "openai-completions", "baseUrl": "%s", "models": [ { "id": "claude" } ] },
                    "openai":    { "api": "openai-completions", "baseUrl": "%s", "models": [ { "id": "gpt" } ] },
                    "ollama":    { "api": "openai-completions", "baseUrl": "%s", "models": [ { "id": "llama" } ] } },
                  "retry": %s }
                """.formatted(url, url, url, retry));
        Files.writeString(
                configDir.resolve("credentials.json"),
                "{ \"anthropic\": [ { \"label\": \"a\", \"apiKey\": \"" + KEY_A + "\" }"
                        + (twoKeys ? ", { \"label\": \"b\", \"apiKey\": \"" + KEY_B + "\" }" : "") + " ] }");
    }

    private void startRebound() throws Exception {
        rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
        assertThat(type(rebound.next(WAIT))).isEqualTo("ready");
    }

    private List<JsonNode> turn(String message) throws Exception {
        rebound.send("{\"type\":\"prompt\",\"message\":\"" + message + "\"}");
        return rebound.framesUntil("agent_end", WAIT).stream().toList();
    }

    private List<JsonNode> wholeTurn(String message) throws Exception {
        return rebound.wholeTurn(message, WAIT);
    }

    private static String type(JsonNode f) {
        return f.path("type").asText();
    }

    private static JsonNode first(List<JsonNode> frames, String type) {
        return frames.stream()
                .filter(f -> type(f).equals(type))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " in " + frames));
    }

    @Test
    void aTitleRequestIsRetriedAlongTheChainOfTheTitleRole() throws Exception {
        configure("{ \"fallbackChains\": { \"title\": [\"ollama/llama\"] } }", false);
        String settings = Files.readString(configDir.resolve("settings.json"));
        Files.writeString(
                configDir.resolve("settings.json"),
                settings.replaceFirst("\\{", "{ \"modelRoles\": { \"title\": \"openai/gpt\" },"));
        script.on("gpt", overloaded("retry-after", "60"));
        script.on("llama", Sse.reply("Backoff for flaky servers"));
        startRebound();

        List<JsonNode> frames = wholeTurn("How do I configure exponential backoff for a flaky server?");
        assertThat(frames).noneMatch(f -> type(f).startsWith("retry_fallback"));
        String title = "";
        for (int i = 0; i < 100 && !title.equals("Backoff for flaky servers"); i++) {
            rebound.send("{\"id\":\"s" + i + "\",\"type\":\"get_state\"}");
            String id = "s" + i;
            title = rebound.until(f -> id.equals(f.path("id").asText()), WAIT)
                    .path("data")
                    .path("title")
                    .asText();
            Thread.sleep(100);
        }

        assertThat(title).isEqualTo("Backoff for flaky servers");
        assertThat(script.log).containsExactly("claude@" + KEY_A, "gpt@-", "llama@-");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void aUsageLimitOnTheFirstKeyMovesToTheSecondAtOnceAndARestartStillSkipsIt() throws Exception {
        configure("{}", true);
        script.on("claude@" + KEY_A, usageLimit("1800"));
        startRebound();
        List<JsonNode> frames = wholeTurn("hi");

        assertThat(script.log).containsExactly("claude@" + KEY_A, "claude@" + KEY_B);
        assertThat(EventFrames.withoutScope(first(frames, "credential_switched")))
                .isEqualTo("{\"type\":\"credential_switched\",\"provider\":\"anthropic\",\"from\":\"a\",\"to\":\"b\"}");
        assertThat(first(frames, "auto_retry_start").path("delayMs").asLong()).isZero();
        assertThat(first(frames, "auto_retry_end").path("success").asBoolean()).isTrue();
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(rebound.stdout()).doesNotContain(KEY_A).doesNotContain(KEY_B);
        assertThat(Files.readString(configDir.resolve("state/credential-blocks.json")))
                .contains("anthropic/a")
                .doesNotContain(KEY_A);

        startRebound();
        turn("after a restart");
        assertThat(script.log).last().isEqualTo("claude@" + KEY_B);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void theLastKeyOfAChainThatRanOutOnUsageLimitsIsBlockedTooAndNotSentAgain() throws Exception {
        // Issue 18, defect 6, end to end: four keys, two retries, every answer a usage limit. The chain ends on the
        // third key; that key must be blocked as the first two are, so the next prompt goes out with the fourth.
        configure("{ \"maxRetries\": 2 }", false);
        String keyC = "sk-ant-cccccccccccccccc";
        String keyD = "sk-ant-dddddddddddddddd";
        Files.writeString(
                configDir.resolve("credentials.json"),
                "{ \"anthropic\": [ { \"label\": \"a\", \"apiKey\": \"" + KEY_A + "\" }, { \"label\": \"b\", "
                        + "\"apiKey\": \"" + KEY_B + "\" }, { \"label\": \"c\", \"apiKey\": \"" + keyC + "\" }, "
                        + "{ \"label\": \"d\", \"apiKey\": \"" + keyD + "\" } ] }");
        script.on(
                "claude",
                ScriptedServer.insufficientQuota(),
                ScriptedServer.insufficientQuota(),
                ScriptedServer.insufficientQuota());
        startRebound();

        List<JsonNode> frames = wholeTurn("hi");
        assertThat(first(frames, "auto_retry_end").path("success").asBoolean()).isFalse();
        assertThat(script.log).containsExactly("claude@" + KEY_A, "claude@" + KEY_B, "claude@" + keyC);

        wholeTurn("and again");
        assertThat(script.log).last().isEqualTo("claude@" + keyD);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
        assertThat(Files.readString(configDir.resolve("state/credential-blocks.json")))
                .contains("anthropic/a")
                .contains("anthropic/b")
                .contains("anthropic/c")
                .doesNotContain("anthropic/d")
                .doesNotContain(keyC);
    }

    @Test
    void withBothKeysBlockedTheWaitEndsWhenTheFirstBlockEnds() throws Exception {
        configure("{}", true);
        script.on("claude@" + KEY_A, usageLimit("1"));
        script.on("claude@" + KEY_B, usageLimit("30"));
        startRebound();
        List<JsonNode> frames = wholeTurn("hi");

        assertThat(script.log).containsExactly("claude@" + KEY_A, "claude@" + KEY_B, "claude@" + KEY_A);
        List<JsonNode> starts =
                frames.stream().filter(f -> type(f).equals("auto_retry_start")).toList();
        assertThat(starts.get(0).path("delayMs").asLong()).isZero();
        assertThat(starts.get(1).path("delayMs").asLong())
                .as("min(30 s, a's unblock − now + 1 s)")
                .isBetween(1_000L, 2_000L);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void withBothKeysBlockedForLongTheMaxDelayFailsFast() throws Exception {
        configure("{}", true);
        script.on("claude@" + KEY_A, usageLimit("1800"));
        script.on("claude@" + KEY_B, usageLimit("1800"));
        startRebound();
        List<JsonNode> frames = wholeTurn("hi");
        JsonNode end = first(frames, "auto_retry_end");
        assertThat(end.path("reason").asText()).isEqualTo("max_delay_exceeded");
        assertThat(end.path("finalError").asText()).contains("exceeds retry.maxDelayMs (300000ms)");
        assertThat(script.log).hasSize(2);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void creditExhaustionWithOneKeyAndNoChainIsTerminalAfterOneRequest() throws Exception {
        configure("{}", false);
        script.on("claude", insufficientQuota());
        startRebound();
        List<JsonNode> frames = wholeTurn("hi");
        assertThat(frames).extracting(FallbackIT::type).doesNotContain("auto_retry_start");
        assertThat(script.log).hasSize(1);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void anOverloadedPrimaryFallsBackAtOnceThenComesBackAfterItsCooldown() throws Exception {
        configure("{ \"fallbackChains\": { \"default\": [\"openai/gpt\", \"ollama/llama\"] } }", false);
        script.on("claude", overloaded("retry-after", "1"));
        startRebound();
        List<JsonNode> frames = wholeTurn("hi");

        assertThat(script.log).containsExactly("claude@" + KEY_A, "gpt@-");
        assertThat(first(frames, "auto_retry_start").path("delayMs").asLong()).isZero();
        assertThat(EventFrames.withoutScope(first(frames, "retry_fallback_applied")))
                .isEqualTo("{\"type\":\"retry_fallback_applied\",\"from\":\"anthropic/claude\",\"to\":\"openai/gpt\","
                        + "\"role\":\"default\"}");
        assertThat(frames)
                .extracting(FallbackIT::type)
                .containsSubsequence(
                        "retry_fallback_applied", "auto_retry_start", "retry_fallback_succeeded", "auto_retry_end");

        rebound.send("{\"id\":\"s\",\"type\":\"get_state\"}");
        JsonNode state =
                rebound.until(f -> "s".equals(f.path("id").asText()), WAIT).path("data");
        assertThat(state.path("fallbackActive").asBoolean()).isTrue();
        assertThat(state.path("fallback").path("primary").asText()).isEqualTo("anthropic/claude");
        assertThat(state.path("fallback").path("revertAt").asLong()).isPositive();

        Thread.sleep(1200);
        List<JsonNode> second = wholeTurn("later");
        assertThat(script.log).last().isEqualTo("claude@" + KEY_A);
        assertThat(EventFrames.withoutScope(first(second, "retry_fallback_reverted")))
                .isEqualTo(
                        "{\"type\":\"retry_fallback_reverted\",\"from\":\"openai/gpt\",\"to\":\"anthropic/claude\"}");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void underNeverTheFallbackStaysAndSetModelClearsIt() throws Exception {
        configure(
                "{ \"fallbackRevertPolicy\": \"never\", \"fallbackChains\": { \"default\": [\"openai/gpt\"] } }",
                false);
        script.on("claude", overloaded("retry-after", "1"));
        startRebound();
        wholeTurn("hi");
        Thread.sleep(1200);
        wholeTurn("still on the fallback");
        assertThat(script.log).containsExactly("claude@" + KEY_A, "gpt@-", "gpt@-");

        rebound.send("{\"id\":\"m\",\"type\":\"set_model\",\"provider\":\"ollama\",\"modelId\":\"llama\"}");
        rebound.until(f -> "m".equals(f.path("id").asText()), WAIT);
        rebound.send("{\"id\":\"s\",\"type\":\"get_state\"}");
        assertThat(rebound.until(f -> "s".equals(f.path("id").asText()), WAIT)
                        .path("data")
                        .path("fallbackActive")
                        .asBoolean())
                .isFalse();
        wholeTurn("chosen");
        assertThat(script.log).last().isEqualTo("llama@-");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void aRefusalIsAnsweredByAPinnedFallbackUntilRefusalPinMs() throws Exception {
        configure("{ \"refusalPinMs\": 1500, \"fallbackChains\": { \"default\": [\"openai/gpt\"] } }", false);
        script.on("claude", refusal());
        startRebound();
        List<JsonNode> frames = wholeTurn("hi");
        assertThat(first(frames, "auto_retry_start").path("errorKind").asText()).isEqualTo("refusal");
        wholeTurn("within the pin");
        Thread.sleep(1600);
        wholeTurn("after the pin");
        assertThat(script.log).containsExactly("claude@" + KEY_A, "gpt@-", "gpt@-", "claude@" + KEY_A);
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void aDeadFallbackMovesToTheNextEntryAndTheBudgetEndsTheChain() throws Exception {
        configure(
                "{ \"maxElapsedMs\": 300, \"fallbackChains\": { \"default\": [\"openai/gpt\", \"ollama/llama\"] } }",
                false);
        script.on("claude", overloaded(), overloaded(), overloaded());
        script.on("gpt", overloaded(), overloaded());
        script.on("llama", overloaded(), overloaded(), overloaded(), overloaded(), overloaded(), overloaded());
        startRebound();
        List<JsonNode> frames = wholeTurn("hi");
        assertThat(script.log).containsExactly("claude@" + KEY_A, "gpt@-", "llama@-");
        JsonNode end = first(frames, "auto_retry_end");
        assertThat(end.path("success").asBoolean()).isFalse();
        assertThat(end.path("reason").asText())
                .as("llama's own backoff would pass the 300 ms budget")
                .isEqualTo("elapsed_budget_exceeded");
        assertThat(end.path("attempt").asInt()).isEqualTo(2);
        assertThat(frames.getLast().path("willRetry").asBoolean()).isFalse();
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }

    @Test
    void aChainNamingAnUnknownModelIsReportedAndTheEntrySkipped() throws Exception {
        configure("{ \"fallbackChains\": { \"default\": [\"openai/gpt-9-imaginary\", \"ollama/llama\"] } }", false);
        script.on("claude", overloaded());
        startRebound();
        JsonNode notice = rebound.until(f -> type(f).equals("notice"), WAIT);
        assertThat(notice.path("message").asText())
                .contains("retry.fallbackChains.default[0]")
                .contains("gpt-9-imaginary");
        wholeTurn("hi");
        assertThat(script.log).containsExactly("claude@" + KEY_A, "llama@-");
        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();
    }
}
