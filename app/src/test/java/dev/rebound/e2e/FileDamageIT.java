package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.SessionLoader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file rows of the fault suite of issue 18 that no other test holds: a truncated credentials.json, garbage in
 * both state/ files and a truncated plugin archive at once; a full disk and a read-only config directory, on a small
 * tmpfs (skipped, saying why, where this machine cannot mount one). (A broken settings.json is {@code RpcModeIT}, a
 * damaged or truncated chat file {@code SessionsIT}, a plugin file that is no zip {@code PluginHostIT}.) Each time
 * the process must start, say what is wrong, answer, keep the damaged file, exit 0, and leak no secret.
 */
class FileDamageIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private static String type(JsonNode f) {
        return f.path("type").asText();
    }

    private static JsonNode lastReply(List<JsonNode> turn) {
        return turn.stream()
                .filter(f -> type(f).equals("message_end"))
                .reduce((a, b) -> b)
                .orElseThrow()
                .path("message");
    }

    @Test
    void damagedCredentialsStateFilesAndPluginArchiveAreReportedKeptAndTheChatStillAnswers() throws Exception {
        Path configDir = Files.createDirectories(tmp.resolve("config"));
        try (FaultServer server = new FaultServer()) {
            FaultSuiteIT.configure(configDir, server.url("/v1"), "\"retry\": { \"enabled\": false }");
            Path credentials = configDir.resolve("credentials.json");
            String whole = Files.readString(credentials);
            String cut = whole.substring(0, whole.indexOf(FaultSuiteIT.KEY) + 14);
            Files.writeString(credentials, cut);
            Path state = Files.createDirectories(configDir.resolve("state"));
            Files.writeString(
                    state.resolve("credential-blocks.json"), "{\"blocks\": [ {\"provider\": \"local\", \"unt");
            Files.write(state.resolve("model-cooldowns.json"), new byte[] {0, (byte) 0xFF, '{', 0x7F});
            Path zip = configDir.resolve("plugins/retry-journal-plugin.zip");
            byte[] archive = Files.readAllBytes(zip);
            Files.write(zip, Arrays.copyOf(archive, archive.length / 2));

            ReboundProcess rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc");
            try {
                List<JsonNode> start = rebound.framesUntil("ready", WAIT);
                List<JsonNode> turn = rebound.wholeTurn("hello", WAIT);
                assertThat(lastReply(turn).path("stopReason").asText()).isEqualTo("stop");
                rebound.send("{\"type\":\"get_plugins\",\"id\":\"p\"}");
                JsonNode plugins = rebound.until(f -> "p".equals(f.path("id").asText()), WAIT);
                rebound.closeStdin();
                assertThat(rebound.waitForExit(WAIT)).isZero();

                String said = rebound.stdout() + rebound.stderr();
                assertThat(said).as("the damaged credentials are named").contains("credentials.json");
                assertThat(said)
                        .as("not even the cut key's first characters are quoted")
                        .doesNotContain(FaultSuiteIT.KEY.substring(0, 14));
                JsonNode cutJournal = null;
                JsonNode recording = null;
                for (JsonNode plugin : plugins.path("data").path("plugins")) {
                    if (plugin.path("archive").asText().endsWith("retry-journal-plugin.zip")) {
                        cutJournal = plugin;
                    } else if (plugin.path("id").asText().equals("recording")) {
                        recording = plugin;
                    }
                }
                assertThat(cutJournal)
                        .as("the truncated archive is listed: %s", plugins)
                        .isNotNull();
                assertThat(cutJournal.path("state").asText())
                        .as("%s", cutJournal)
                        .isNotEqualTo("active");
                assertThat(cutJournal.path("failure").asText())
                        .as("%s", cutJournal)
                        .isNotBlank();
                assertThat(recording)
                        .as("the healthy plugin is listed: %s", plugins)
                        .isNotNull();
                assertThat(recording.path("state").asText()).isEqualTo("active");
                assertThat(Files.readString(credentials))
                        .as("the damaged credentials are kept")
                        .isEqualTo(cut);
                assertThat(start).isNotEmpty();
                SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, rebound, configDir);
            } finally {
                rebound.close();
            }
        }
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }

    @Test
    void aFullDiskAndAReadOnlyConfigDirectoryCostSavesNotReplies() throws Exception {
        Path mount = Files.createDirectories(tmp.resolve("small-disk"));
        assumeTrue(
                run("mount", "-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", mount.toString()),
                "skipped: this machine cannot mount a small tmpfs (needs root and mount rights), so no full disk or "
                        + "read-only folder can be made");
        try (FaultServer server = new FaultServer()) {
            Path configDir = Files.createDirectories(mount.resolve("config"));
            FaultSuiteIT.configure(configDir, server.url("/v1"), "\"retry\": { \"enabled\": false }");
            ReboundProcess rebound = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--no-plugins");
            Path chat;
            try {
                rebound.framesUntil("ready", WAIT);
                assertThat(lastReply(rebound.wholeTurn("before the disk fills", WAIT))
                                .path("stopReason")
                                .asText())
                        .isEqualTo("stop");
                Path filler = mount.resolve("filler");
                try (OutputStream out = Files.newOutputStream(filler)) {
                    byte[] block = new byte[4096];
                    while (true) {
                        out.write(block);
                    }
                } catch (IOException full) {
                    // the disk is full
                }
                server.enqueue(FaultServer.sse(Sse.chunk("x".repeat(20_000)) + Sse.finish()));
                List<JsonNode> onFullDisk = rebound.wholeTurn("while the disk is full", WAIT);
                assertThat(lastReply(onFullDisk).path("stopReason").asText())
                        .as("the reply still reaches the client")
                        .isEqualTo("stop");
                // The notice is announced from a background thread (announcing appends to the very history whose
                // save failed), so it may follow the turn's last event.
                if (onFullDisk.stream().noneMatch(f -> type(f).equals("notice"))) {
                    rebound.until(f -> type(f).equals("notice"), Duration.ofSeconds(5));
                }
                Files.delete(filler);
                assertThat(lastReply(rebound.wholeTurn("after space came back", WAIT))
                                .path("stopReason")
                                .asText())
                        .isEqualTo("stop");
                rebound.send("{\"type\":\"get_state\",\"id\":\"s\"}");
                chat = Path.of(rebound.until(f -> "s".equals(f.path("id").asText()), WAIT)
                        .path("data")
                        .path("sessionFile")
                        .asText());
                rebound.closeStdin();
                assertThat(rebound.waitForExit(WAIT)).isZero();
            } finally {
                rebound.close();
            }
            LoadedSession loaded = new SessionLoader().load(chat);
            assertThat(loaded.problems())
                    .as("at most the line the full disk cut")
                    .hasSizeLessThanOrEqualTo(1);
            assertThat(loaded.entries().toString()).contains("after space came back");
            SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, rebound, configDir);

            assertThat(run("mount", "-o", "remount,ro", mount.toString())).isTrue();
            ReboundProcess readOnly = ReboundProcess.start(configDir, Map.of(), "--mode", "rpc", "--no-plugins");
            try {
                readOnly.framesUntil("ready", WAIT);
                assertThat(lastReply(readOnly.wholeTurn("on a read-only folder", WAIT))
                                .path("stopReason")
                                .asText())
                        .isEqualTo("stop");
                readOnly.closeStdin();
                assertThat(readOnly.waitForExit(WAIT)).isZero();
                assertThat(readOnly.stdout() + readOnly.stderr())
                        .as("the read-only folder is said")
                        .containsIgnoringCase("read-only");
                SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, readOnly, configDir);
            } finally {
                readOnly.close();
            }
        } finally {
            run("umount", "-l", mount.toString());
        }
    }
}
