package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.SessionLoader;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.UserMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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
            Map<String, byte[]> damagedState = Map.of(
                    "credential-blocks.json",
                    "{\"blocks\": [ {\"provider\": \"local\", \"unt".getBytes(StandardCharsets.UTF_8),
                    "model-cooldowns.json",
                    new byte[] {0, (byte) 0xFF, '{', 0x7F});
            for (Map.Entry<String, byte[]> damaged : damagedState.entrySet()) {
                Files.write(state.resolve(damaged.getKey()), damaged.getValue());
            }
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
                for (Map.Entry<String, byte[]> damaged : damagedState.entrySet()) {
                    Path file = state.resolve(damaged.getKey());
                    assertThat(said)
                            .as("a notice names the damaged %s as not valid JSON", damaged.getKey())
                            .contains(file + " is not valid JSON");
                    List<Path> copies;
                    try (Stream<Path> files = Files.list(state)) {
                        copies = files.filter(
                                        f -> f.getFileName().toString().startsWith(damaged.getKey() + ".corrupt-"))
                                .toList();
                    }
                    if (Files.exists(file) && Arrays.equals(Files.readAllBytes(file), damaged.getValue())) {
                        continue; // never rewritten: kept as it was
                    }
                    assertThat(copies)
                            .as("%s was rewritten, so a byte-for-byte copy of the damaged file is kept", file)
                            .anySatisfy(
                                    copy -> assertThat(Files.readAllBytes(copy)).isEqualTo(damaged.getValue()));
                }
                assertThat(start).isNotEmpty();
                SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, rebound, configDir);
            } finally {
                rebound.close();
            }
        }
    }

    /**
     * The text of the notice that starts so, from the turn's frames or just after them: a notice that saving failed is
     * announced from a background thread (announcing appends to the very history whose save failed), so it may follow
     * the turn's last event.
     */
    private static String notice(ReboundProcess rebound, List<JsonNode> turn, String start) throws Exception {
        java.util.function.Predicate<JsonNode> match =
                f -> type(f).equals("notice") && f.path("message").asText().startsWith(start);
        JsonNode notice = turn.stream().filter(match).findFirst().orElse(null);
        if (notice == null) {
            notice = rebound.until(match, Duration.ofSeconds(5));
        }
        return notice.path("message").asText();
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
        String heldBackReply = "x".repeat(20_000);
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
                server.enqueue(FaultServer.sse(Sse.chunk(heldBackReply) + Sse.finish()));
                List<JsonNode> onFullDisk = rebound.wholeTurn("while the disk is full", WAIT);
                assertThat(lastReply(onFullDisk).path("stopReason").asText())
                        .as("the reply still reaches the client")
                        .isEqualTo("stop");
                assertThat(notice(rebound, onFullDisk, "Rebound cannot save this chat to "))
                        .as("the notice says saving stopped, that nothing is lost, and what to do")
                        .contains("keeps what is not saved yet")
                        .contains("free some disk space");
                Files.delete(filler);
                List<JsonNode> afterSpace = rebound.wholeTurn("after space came back", WAIT);
                assertThat(lastReply(afterSpace).path("stopReason").asText()).isEqualTo("stop");
                assertThat(notice(rebound, afterSpace, "Saving this chat works again"))
                        .contains("everything held back is now in");
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
            List<String> saved = new ArrayList<>();
            for (JournalEntry e : loaded.entries()) {
                if (e instanceof MessageEntry m) {
                    saved.add(
                            m.message() instanceof UserMessage u
                                    ? "user:" + u.text()
                                    : m.message() instanceof AssistantMessage a
                                                    && a.text().equals(heldBackReply)
                                            ? "assistant:the held-back reply"
                                            : "assistant");
                }
            }
            assertThat(saved)
                    .as("the prompt sent while the disk was full and its reply were written once space returned")
                    .containsExactly(
                            "user:before the disk fills",
                            "assistant",
                            "user:while the disk is full",
                            "assistant:the held-back reply",
                            "user:after space came back",
                            "assistant");
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
