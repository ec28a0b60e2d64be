package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.transcript.ModelRef;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two chats of one desktop retrying at the same moment, seen by real plugins in the real host: the recording plugin
 * (one line per event, with its session and turn) and the shipped metrics plugin. Each chat's first failure is held
 * until the other chat's first request has arrived, so their events interleave.
 */
class TwoChatsPluginEventsIT {

    private static final String OVERLOADED =
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";

    @TempDir
    Path configDir;

    @Test
    void aPluginSeesTwoInterleavedButSeparableStreamsAndTheMetricsCountEachTurnOnce() throws Exception {
        Path plugins = Files.createDirectories(configDir.resolve("plugins"));
        PluginArchiveBuilder.of("recording").jar(plugins, "recording.jar");
        Path built = Path.of(System.getProperty("rebound.bundledPlugins", "target/bundled-plugins"));
        Files.copy(built.resolve("prometheus-metrics-plugin.zip"), plugins.resolve("prometheus-metrics-plugin.zip"));
        try (MockWebServer server = new MockWebServer()) {
            TwoModels models = new TwoModels();
            server.setDispatcher(models);
            server.start();
            Files.writeString(configDir.resolve("settings.json"), """
                    { "model": "local/test-model",
                      "providers": { "local": { "api": "openai-completions", "baseUrl": "%s",
                                                "models": [ { "id": "test-model" }, { "id": "other-model" } ] } },
                      "retry": { "baseDelayMs": 10, "modelFallback": false },
                      "plugins": { "prometheus-metrics": { "port": 0 } } }
                    """.formatted(server.url("/v1")));
            List<String> lines;
            String metrics;
            String idA;
            String idB;
            try (DesktopHarness desktop = DesktopHarness.open(configDir)) {
                desktop.startPlugins();
                ChatSession a = desktop.newChat();
                ChatSession b = desktop.newChat();
                b.setModel(new ModelRef("local", "other-model"));
                idA = a.id();
                idB = b.id();
                PromptResult.Accepted turnA = (PromptResult.Accepted) a.prompt("first chat", null);
                PromptResult.Accepted turnB = (PromptResult.Accepted) b.prompt("second chat", null);
                turnA.completion().get(30, TimeUnit.SECONDS);
                turnB.completion().get(30, TimeUnit.SECONDS);
                metrics = awaitScrape("rebound_retries_per_turn_count 2\n");
                lines = awaitLines(configDir.resolve("plugin-data/recording/events.txt"), 2);
                a.close();
                b.close();
            }

            Map<String, List<String>> bySession = new LinkedHashMap<>();
            for (String line : lines) {
                String session = line.replaceFirst("^\\S+ session=(\\S+) .*$", "$1");
                bySession.computeIfAbsent(session, k -> new ArrayList<>()).add(line);
            }
            assertThat(bySession).containsOnlyKeys(idA, idB);
            assertThat(interleaved(lines, idA, idB))
                    .as("the two chats' events interleave")
                    .isTrue();
            assertOneWholeTurn(bySession.get(idA), 2);
            // Chat B's model was chosen before its turn: that event belongs to the chat but to no turn.
            assertThat(bySession.get(idB).getFirst()).startsWith("model_changed session=" + idB + " turn=null");
            assertOneWholeTurn(bySession.get(idB).subList(1, bySession.get(idB).size()), 1);

            assertThat(metrics)
                    .contains(
                            "rebound_retries_per_turn_count 2\n",
                            "rebound_retries_per_turn_sum 3.0\n",
                            "rebound_retries_per_turn_bucket{le=\"1.0\"} 1\n",
                            "rebound_retries_per_turn_bucket{le=\"2.0\"} 2\n",
                            "rebound_retries_total{error_kind=\"transient\"} 3.0\n",
                            "rebound_retry_chains_total{outcome=\"succeeded\"} 2.0\n");
        }
    }

    /** One chat's lines: one turn id throughout, the retries scheduled, and the turn's end last. */
    private static void assertOneWholeTurn(List<String> lines, int retries) {
        List<String> turns = lines.stream()
                .map(l -> l.replaceFirst("^\\S+ session=\\S+ turn=(\\S+).*$", "$1"))
                .distinct()
                .toList();
        assertThat(turns).as("turn ids of %s", lines).singleElement().isNotEqualTo("null");
        assertThat(lines.getFirst()).startsWith("agent_start ");
        assertThat(lines.getLast()).startsWith("agent_end ").endsWith("willRetry=false");
        assertThat(lines).filteredOn(l -> l.startsWith("auto_retry_start ")).hasSize(retries);
        assertThat(lines).filteredOn(l -> l.startsWith("agent_start ")).hasSize(retries + 1);
        assertThat(lines).filteredOn(l -> l.startsWith("retry_chain_end ")).hasSize(1);
    }

    private static boolean interleaved(List<String> lines, String a, String b) {
        int lastA = -1;
        int firstB = Integer.MAX_VALUE;
        int lastB = -1;
        int firstA = Integer.MAX_VALUE;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(" session=" + a + " ")) {
                firstA = Math.min(firstA, i);
                lastA = i;
            } else if (lines.get(i).contains(" session=" + b + " ")) {
                firstB = Math.min(firstB, i);
                lastB = i;
            }
        }
        return firstB < lastA && firstA < lastB;
    }

    /** The recording plugin's lines, once both turns' last events are in. */
    private static List<String> awaitLines(Path file, int turnEnds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
            long ends = lines.stream()
                    .filter(l -> l.startsWith("agent_end ") && l.endsWith("willRetry=false"))
                    .count();
            if (ends >= turnEnds || System.nanoTime() > deadline) {
                assertThat(ends).as("turn ends in %s", lines).isEqualTo(turnEnds);
                return lines.stream().filter(l -> !l.equals("closed")).toList();
            }
            Thread.sleep(20);
        }
    }

    private String awaitScrape(String expected) throws Exception {
        Path endpoint = configDir.resolve("plugin-data/prometheus-metrics/endpoint");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (HttpClient http = HttpClient.newHttpClient()) {
            while (true) {
                String body = Files.exists(endpoint)
                        ? http.send(
                                        HttpRequest.newBuilder(URI.create(Files.readString(endpoint)
                                                        .strip()))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .body()
                        : "";
                if (body.contains(expected) || System.nanoTime() > deadline) {
                    assertThat(body).contains(expected);
                    return body;
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * test-model fails twice with 529, other-model once, then each answers; the first failure of each waits until
     * the other model's first request has arrived.
     */
    private static final class TwoModels extends Dispatcher {
        private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        private final Map<String, CountDownLatch> arrived =
                Map.of("test-model", new CountDownLatch(1), "other-model", new CountDownLatch(1));

        @Override
        public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            String body = request.getBody() == null ? "" : request.getBody().utf8();
            String model = body.contains("\"other-model\"") ? "other-model" : "test-model";
            String other = model.equals("test-model") ? "other-model" : "test-model";
            int call = calls.computeIfAbsent(model, m -> new AtomicInteger()).incrementAndGet();
            arrived.get(model).countDown();
            if (call == 1) {
                arrived.get(other).await(10, TimeUnit.SECONDS);
            }
            int failures = model.equals("test-model") ? 2 : 1;
            if (call <= failures) {
                return new MockResponse.Builder()
                        .code(529)
                        .addHeader("Content-Type", "application/json")
                        .body(OVERLOADED)
                        .build();
            }
            return Sse.reply("reply from " + model);
        }
    }
}
