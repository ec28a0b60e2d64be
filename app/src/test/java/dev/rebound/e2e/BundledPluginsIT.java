package dev.rebound.e2e;

import static dev.rebound.e2e.ScriptedServer.overloaded;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugins the project ships, as the zips the build made ({@code plugins/*}), dropped into a config folder and loaded
 * by the real jar in RPC mode, through real retry chains against a loopback server: the journal's records, the
 * metrics scraped over HTTP, and the guide's example plugin's log lines.
 */
class BundledPluginsIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> ARCHIVES =
            List.of("retry-journal-plugin.zip", "prometheus-metrics-plugin.zip", "example-plugin-plugin.zip");

    @TempDir
    Path configDir;

    private MockWebServer server;
    private final ScriptedServer script = new ScriptedServer();
    private ReboundProcess rebound;

    @BeforeEach
    void start() throws Exception {
        server = new MockWebServer();
        server.setDispatcher(script);
        server.start();
        Path plugins = Files.createDirectories(configDir.resolve("plugins"));
        Path built = Path.of(System.getProperty("rebound.bundledPlugins", "target/bundled-plugins"));
        for (String archive : ARCHIVES) {
            assertThat(built.resolve(archive))
                    .as("built by the plugins modules; run the build from the root")
                    .isRegularFile();
            Files.copy(built.resolve(archive), plugins.resolve(archive));
        }
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "anthropic/claude",
                  "providers": {
                    "anthropic": { "api": "openai-completions", "baseUrl": "%s", "models": [ { "id": "claude" } ] } },
                  "retry": { "baseDelayMs": 10 },
                  "plugins": { "prometheus-metrics": { "port": 0 } } }
                """.formatted(server.url("/v1")));
        Files.writeString(
                configDir.resolve("credentials.json"),
                "{ \"anthropic\": [ { \"label\": \"main\", \"apiKey\": \"sk-ant-0123456789abcdef\" } ] }");
        rebound = PluginFixtures.startRpc(configDir);
    }

    @AfterEach
    void stop() throws IOException {
        rebound.close();
        server.close();
    }

    @Test
    void theShippedPluginsLoadAndRecordA3x529ChainAQuietTurnAndAChainThatGivesUp() throws Exception {
        script.on("claude", overloaded(), overloaded(), overloaded());
        List<JsonNode> retried = PluginFixtures.wholeTurn(rebound, "first");
        String retriedTurn = turnId(retried);
        assertThat(retried)
                .filteredOn(f -> f.path("type").asText().equals("auto_retry_start"))
                .hasSize(3);

        PluginFixtures.wholeTurn(rebound, "second");

        setMaxRetries(1);
        script.on("claude", overloaded(), overloaded());
        List<JsonNode> failed = PluginFixtures.wholeTurn(rebound, "third");
        String failedTurn = turnId(failed);
        assertThat(failed)
                .filteredOn(f -> f.path("type").asText().equals("auto_retry_end"))
                .singleElement()
                .satisfies(end -> assertThat(end.path("success").asBoolean()).isFalse());

        Map<String, JsonNode> plugins = plugins();
        assertThat(plugins).containsOnlyKeys("retry-journal", "prometheus-metrics", "example-plugin");
        plugins.values()
                .forEach(p ->
                        assertThat(p.path("state").asText()).as(p.toString()).isEqualTo("active"));

        String metrics = awaitScrape("rebound_retries_per_turn_count 3\n");
        assertThat(sample(metrics, "rebound_retries_total\\{error_kind=\"[a-z_]+\"}"))
                .isEqualTo(4.0);
        assertThat(sample(metrics, "rebound_retries_per_turn_sum")).isEqualTo(4.0);
        assertThat(sample(metrics, "rebound_retries_per_turn_bucket\\{le=\"0.0\"}"))
                .isEqualTo(1.0);
        assertThat(sample(metrics, "rebound_retries_per_turn_bucket\\{le=\"1.0\"}"))
                .isEqualTo(2.0);
        assertThat(sample(metrics, "rebound_retries_per_turn_bucket\\{le=\"3.0\"}"))
                .isEqualTo(3.0);
        assertThat(sample(metrics, "rebound_retry_chains_total\\{outcome=\"[a-z_]+\"}"))
                .isEqualTo(2.0);

        rebound.closeStdin();
        assertThat(rebound.waitForExit(WAIT)).isZero();

        List<String> lines = Files.readAllLines(configDir.resolve("plugin-data/retry-journal/retry-journal.jsonl"));
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(configDir.resolve("plugin-data/retry-journal"))))
                .as("what plugins keep is the owner's only")
                .isEqualTo("rwx------");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(configDir.resolve("plugin-data"))))
                .isEqualTo("rwx------");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(
                        configDir.resolve("plugin-data/retry-journal/retry-journal.jsonl"))))
                .as("the journal holds error texts: 0600")
                .isEqualTo("rw-------");
        assertThat(lines).as("one record per chain; the quiet turn has none").hasSize(2);
        JsonNode ok = JSON.readTree(lines.get(0));
        String sessionId = retried.getFirst().path("sessionId").asText();
        assertThat(sessionId).isNotEmpty();
        assertThat(ok.path("sessionId").asText()).isEqualTo(sessionId);
        assertThat(ok.path("chatFile").asText()).endsWith(".jsonl");
        assertThat(ok.path("turnId").asText()).isEqualTo(retriedTurn);
        assertThat(ok.path("outcome").asText()).isEqualTo("succeeded");
        assertThat(ok.path("attempts")).hasSize(3).allSatisfy(a -> {
            assertThat(a.path("httpStatus").asInt()).isEqualTo(529);
            assertThat(a.path("model").asText()).isEqualTo("anthropic/claude");
            assertThat(a.path("credential").asText()).isEqualTo("main");
            assertThat(a.path("errorKind").asText()).isNotEmpty();
            assertThat(a.path("delayMs").isNumber()).isTrue();
        });
        JsonNode gaveUp = JSON.readTree(lines.get(1));
        assertThat(gaveUp.path("turnId").asText()).isEqualTo(failedTurn);
        assertThat(gaveUp.path("outcome").asText()).isEqualTo("gave_up");
        assertThat(gaveUp.path("giveUpReason").asText()).isNotEmpty();
        assertThat(gaveUp.path("finalError").asText()).isNotEmpty();
        assertThat(gaveUp.path("attempts")).hasSize(2);
        assertThat(lines).noneMatch(l -> l.contains("sk-ant-"));

        String log = Files.readString(configDir.resolve("logs/rebound.log"));
        assertThat(Pattern.compile("auto_retry_start: chat " + Pattern.quote(sessionId) + " retry \\d/\\d+ in "
                                + "\\d+ ms after a [a-z_]+ error from anthropic/claude")
                        .matcher(log)
                        .results()
                        .count())
                .isEqualTo(4);
        assertThat(configDir.resolve("plugin-data/prometheus-metrics/endpoint"))
                .as("removed when closed")
                .doesNotExist();
    }

    private static String turnId(List<JsonNode> turn) {
        return turn.stream()
                .filter(f -> f.path("type").asText().equals("agent_start"))
                .findFirst()
                .orElseThrow()
                .path("turnId")
                .asText();
    }

    private void setMaxRetries(int max) throws Exception {
        rebound.send("{\"id\":\"s\",\"type\":\"set_settings\",\"patch\":{\"retry\":{\"maxRetries\":" + max + "}}}");
        JsonNode response = rebound.until(f -> "s".equals(f.path("id").asText()), WAIT);
        assertThat(response.path("success").asBoolean()).as(response.toString()).isTrue();
    }

    private Map<String, JsonNode> plugins() throws Exception {
        rebound.send("{\"id\":\"p\",\"type\":\"get_plugins\"}");
        JsonNode response = rebound.until(f -> "p".equals(f.path("id").asText()), WAIT);
        java.util.LinkedHashMap<String, JsonNode> byId = new java.util.LinkedHashMap<>();
        response.path("data").path("plugins").forEach(p -> byId.put(p.path("id").asText(), p));
        return byId;
    }

    /** Scrapes /metrics until it shows {@code expected}: plugins get events asynchronously, after the RPC frames. */
    private String awaitScrape(String expected) throws Exception {
        Path endpoint = configDir.resolve("plugin-data/prometheus-metrics/endpoint");
        assertThat(endpoint).isRegularFile();
        URI uri = URI.create(Files.readString(endpoint).strip());
        assertThat(uri.getHost()).isEqualTo("127.0.0.1");
        try (HttpClient http = HttpClient.newHttpClient()) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (true) {
                HttpResponse<String> response =
                        http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                if (response.body().contains(expected) || System.nanoTime() > deadline) {
                    assertThat(response.body()).contains(expected);
                    return response.body();
                }
                Thread.sleep(50);
            }
        }
    }

    /** The sum of every sample whose name and labels match {@code series}. */
    private static double sample(String metrics, String series) {
        Matcher m = Pattern.compile("(?m)^" + series + " ([0-9.eE+-]+)$").matcher(metrics);
        double sum = 0;
        int found = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
            found++;
        }
        assertThat(found).as("samples of %s in%n%s", series, metrics).isPositive();
        return sum;
    }
}
