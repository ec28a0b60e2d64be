package dev.rebound.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** The plugin archives, settings and turn helpers shared by {@code PluginHostIT} and {@code PluginOverheadBenchmark}. */
final class PluginFixtures {
    static final Duration WAIT = Duration.ofSeconds(30);

    private PluginFixtures() {}

    /** {@code recording.zip}: the recording plugin as a zip with {@code plugin.properties}. */
    static void recordingZip(Path dir) throws IOException {
        PluginArchiveBuilder.of("recording").zip(dir, "recording.zip");
    }

    /**
     * Every hostile plugin (throws, blocks, linkage, flood), a copy of the recording plugin under its own id (a
     * duplicate when recording.zip is loaded too), a refused one, one switched off in settings, one whose
     * {@code extensions.idx} names a missing class, and a file that is not a zip.
     */
    static void hostileSet(Path dir) throws IOException {
        PluginArchiveBuilder.of("recording").jar(dir, "recording-again.jar");
        for (String plugin : List.of("throws", "blocks", "linkage", "flood")) {
            PluginArchiveBuilder.of(plugin).jar(dir, plugin + ".jar");
        }
        PluginArchiveBuilder.of("recording")
                .id("bad-requires")
                .requires(">=99.0.0")
                .jar(dir, "bad-requires.jar");
        PluginArchiveBuilder.of("recording").id("switched-off").jar(dir, "switched-off.jar");
        PluginArchiveBuilder.of("recording")
                .id("bad-index")
                .extensionsIndex("dev.rebound.itplugins.NoSuchListener\n")
                .jar(dir, "bad-index.jar");
        Files.writeString(dir.resolve("corrupt.jar"), "this is not a zip archive");
    }

    /** One provider on the loopback server with two keys; fast retries; switched-off disabled; recording's section. */
    static void configure(Path configDir, String url, String keyA, String keyB) throws IOException {
        Files.writeString(configDir.resolve("settings.json"), """
                { "model": "anthropic/claude",
                  "providers": {
                    "anthropic": { "api": "openai-completions", "baseUrl": "%s", "models": [ { "id": "claude" } ] } },
                  "retry": { "baseDelayMs": 10 },
                  "plugins": { "switched-off": { "enabled": false }, "recording": { "note": "hello" } } }
                """.formatted(url));
        Files.writeString(
                configDir.resolve("credentials.json"),
                "{ \"anthropic\": [ { \"label\": \"a\", \"apiKey\": \"" + keyA
                        + "\" }, { \"label\": \"b\", \"apiKey\": \"" + keyB + "\" } ] }");
    }

    /** The real jar in RPC mode with these extra arguments, once it said {@code ready}. */
    static ReboundProcess startRpc(Path configDir, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--mode", "rpc"));
        all.addAll(List.of(args));
        ReboundProcess rebound = ReboundProcess.start(configDir, Map.of(), all.toArray(String[]::new));
        JsonNode ready = rebound.next(WAIT);
        if (!"ready".equals(ready.path("type").asText())) {
            throw new AssertionError("expected ready, got " + ready);
        }
        return rebound;
    }

    /** Frames of a whole turn, retries included: until the agent_end that does not announce a retry. */
    static List<JsonNode> wholeTurn(ReboundProcess rebound, String message) throws Exception {
        return rebound.wholeTurn(message, WAIT);
    }

    /**
     * Times turns of a streamed reply of {@code pieces} chunks, from the prompt written to the final agent_end read;
     * returns the timed ones after the warm-up, sorted.
     */
    static List<Long> turnNanos(ReboundProcess rebound, ScriptedServer script, int warmUp, int timed, int pieces)
            throws Exception {
        String[] reply = IntStream.range(0, pieces).mapToObj(i -> "w" + i + " ").toArray(String[]::new);
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < warmUp + timed; i++) {
            script.on("claude", Sse.reply(reply));
            long started = System.nanoTime();
            wholeTurn(rebound, "turn " + i);
            if (i >= warmUp) {
                times.add(System.nanoTime() - started);
            }
        }
        return times.stream().sorted().toList();
    }
}
