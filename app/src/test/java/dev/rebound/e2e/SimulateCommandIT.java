package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rebound simulate}: the standalone simulator, asked by a plain HTTP client that knows nothing of Rebound. */
class SimulateCommandIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Pattern URL = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+/v1)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = """
            {"model":"rebound-simulator","stream":true,"stream_options":{"include_usage":true},
             "messages":[{"role":"user","content":"How should a client back off?"}]}""";

    @TempDir
    Path dir;

    private ReboundProcess simulator;
    private final OkHttpClient http = new OkHttpClient();

    @AfterEach
    void stop() {
        if (simulator != null) {
            simulator.close();
        }
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }

    private String startSimulator(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("simulate", "--port", "0", "--tokens-per-second", "0"));
        command.addAll(List.of(args));
        simulator = ReboundProcess.start(false, null, Map.of(), command.toArray(String[]::new));
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher url = URL.matcher(simulator.stdout());
            if (url.find()) {
                return url.group(1);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("The simulator printed no URL; stderr:\n" + simulator.stderr());
    }

    private Response post(String url, String body) throws Exception {
        return http.newCall(new Request.Builder()
                        .url(url + "/chat/completions")
                        .post(RequestBody.create(body, MediaType.get("application/json")))
                        .build())
                .execute();
    }

    @Test
    void aPlainClientGetsAValidStreamedCompletion() throws Exception {
        String url = startSimulator("--seed", "42");

        List<JsonNode> chunks = new ArrayList<>();
        boolean done = false;
        try (Response response = post(url, CHAT)) {
            assertThat(response.code()).isEqualTo(200);
            assertThat(response.header("Content-Type")).startsWith("text/event-stream");
            for (String line : response.body().string().split("\n")) {
                if (line.equals("data: [DONE]")) {
                    done = true;
                } else if (line.startsWith("data: ")) {
                    assertThat(done).as("nothing after [DONE]").isFalse();
                    chunks.add(JSON.readTree(line.substring(6)));
                }
            }
        }

        assertThat(done).isTrue();
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(c.path("id").asText())
                    .isEqualTo(chunks.getFirst().path("id").asText());
        });
        assertThat(chunks.getFirst()
                        .path("choices")
                        .get(0)
                        .path("delta")
                        .path("role")
                        .asText())
                .isEqualTo("assistant");
        StringBuilder text = new StringBuilder();
        chunks.forEach(c -> c.path("choices")
                .forEach(ch -> text.append(ch.path("delta").path("content").asText(""))));
        assertThat(text.toString()).startsWith("## ").contains("\n### ");
        JsonNode finish = chunks.get(chunks.size() - 2);
        assertThat(finish.path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");
        JsonNode usage = chunks.getLast().path("usage");
        assertThat(chunks.getLast().path("choices")).isEmpty();
        assertThat(usage.path("completion_tokens").asInt()).isPositive();
        assertThat(usage.path("total_tokens").asInt())
                .isEqualTo(usage.path("prompt_tokens").asInt()
                        + usage.path("completion_tokens").asInt());
        try (Response models =
                http.newCall(new Request.Builder().url(url + "/models").build()).execute()) {
            assertThat(JSON.readTree(models.body().string())
                            .path("data")
                            .get(0)
                            .path("id")
                            .asText())
                    .isEqualTo("rebound-simulator");
        }
    }

    @Test
    void aScenarioFileScriptsTheFirstRequestsThenRepliesAreNormal() throws Exception {
        Path scenario = dir.resolve("scenario.json");
        Files.writeString(scenario, """
                { "steps": [ { "fault": "overload" }, { "fault": "rate-limit", "retryAfterMs": 1500 } ] }""");
        String url = startSimulator("--scenario", scenario.toString());

        try (Response overloaded = post(url, CHAT)) {
            assertThat(overloaded.code()).isEqualTo(529);
            assertThat(overloaded.body().string())
                    .startsWith("{\"type\":\"error\",\"error\":{\"type\":"
                            + "\"overloaded_error\",\"message\":\"Overloaded\"}");
        }
        try (Response limited = post(url, CHAT)) {
            assertThat(limited.code()).isEqualTo(429);
            assertThat(limited.header("retry-after-ms")).isEqualTo("1500");
            assertThat(JSON.readTree(limited.body().string())
                            .path("error")
                            .path("code")
                            .asText())
                    .isEqualTo("rate_limit_exceeded");
        }
        try (Response ok = post(url, CHAT)) {
            assertThat(ok.code()).isEqualTo(200);
            assertThat(ok.body().string()).endsWith("data: [DONE]\n\n");
        }
    }

    @Test
    void helpNamesTheSimulateCommandAndTheScenarioOption() throws Exception {
        simulator = ReboundProcess.start(false, null, Map.of(), "--help");
        assertThat(simulator.waitForExit(WAIT)).isZero();
        assertThat(simulator.stdout()).contains("--scenario=FILE", "simulate  Run the fault simulator");
        simulator.close();
        simulator = ReboundProcess.start(false, null, Map.of(), "simulate", "--help");
        assertThat(simulator.waitForExit(WAIT)).isZero();
        assertThat(simulator.stdout()).contains("--port=N", "--scenario=FILE", "--tokens-per-second=R", "--seed=S");
    }

    @Test
    void aMalformedScenarioStopsTheCommandWithTheReason() throws Exception {
        Path scenario = dir.resolve("bad.json");
        Files.writeString(scenario, "[ { \"fault\": \"cut-after\", \"chars\": -1 } ]");

        simulator = ReboundProcess.start(false, null, Map.of(), "simulate", "--scenario", scenario.toString());

        assertThat(simulator.waitForExit(WAIT)).isEqualTo(2);
        assertThat(simulator.stderr()).contains("steps[0].chars: must be a whole number from 0 to 1000000 (got -1)");
    }

    @Test
    void aPortInUseStopsTheCommandWithTheReason() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            simulator = ReboundProcess.start(
                    false, null, Map.of(), "simulate", "--port", String.valueOf(taken.getLocalPort()));

            assertThat(simulator.waitForExit(WAIT)).isEqualTo(2);
            assertThat(simulator.stderr())
                    .contains(
                            "rebound simulate: cannot listen on 127.0.0.1:" + taken.getLocalPort(),
                            "Choose another --port, or --port 0 for any free one.");
        }
    }

    @Test
    void aRateAboveTheCapIsAUsageErrorWithTheRange() throws Exception {
        simulator = ReboundProcess.start(false, null, Map.of(), "simulate", "--tokens-per-second", "1e22");

        assertThat(simulator.waitForExit(WAIT)).isEqualTo(2);
        assertThat(simulator.stderr())
                .contains("rebound simulate: tokens per second must be from 0 (as fast as "
                        + "possible) to 1,000,000, not 10000000000000000000000");
    }
}
