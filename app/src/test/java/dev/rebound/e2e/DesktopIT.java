package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar without {@code --mode} opens the desktop window (on JavaFX's headless platform, passed through
 * {@code JAVA_TOOL_OPTIONS}), with a new chat or with the chat of {@code --session}.
 */
class DesktopIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Map<String, String> HEADLESS =
            Map.of("JAVA_TOOL_OPTIONS", "-Dglass.platform=Headless -Dprism.order=sw");

    @TempDir
    Path configDir;

    private ReboundProcess rebound;

    @AfterEach
    void stop() {
        if (rebound != null) {
            rebound.close();
        }
    }

    private String log() {
        try (Stream<Path> files = Files.list(configDir.resolve("logs"))) {
            StringBuilder all = new StringBuilder();
            for (Path f : files.toList()) {
                all.append(Files.readString(f));
            }
            return all.toString();
        } catch (IOException e) {
            return "";
        }
    }

    private List<Path> sessions() {
        try (Stream<Path> files = Files.list(configDir.resolve("sessions"))) {
            return files.filter(f -> f.toString().endsWith(".jsonl")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitLog(Predicate<String> condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.test(log())) {
            assertThat(System.nanoTime())
                    .as("log: %s%nstderr: %s", log(), rebound.stderr())
                    .isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    @Test
    void withoutAModeTheJarOpensTheWindowOnANewChat() throws Exception {
        rebound = ReboundProcess.start(false, configDir, HEADLESS);

        awaitLog(l -> l.contains("Desktop window shown") && l.contains("Chat "));
        assertThat(sessions()).hasSize(1);
        assertThat(rebound.stdout()).isEmpty();
    }

    @Test
    void sessionReopensThatChatInTheWindow() throws Exception {
        rebound = ReboundProcess.start(false, configDir, HEADLESS);
        awaitLog(l -> l.contains("Chat "));
        rebound.close();
        Path saved = sessions().getFirst();
        String id = saved.getFileName().toString().replace(".jsonl", "");

        rebound = ReboundProcess.start(false, configDir, HEADLESS, "--session", saved.toString());

        awaitLog(l -> l.split("Chat " + id + " shown", -1).length == 3);
        assertThat(sessions()).containsExactly(saved);
    }

    @Test
    void aMissingSessionFileIsAClearErrorAndNoWindow() throws Exception {
        rebound = ReboundProcess.start(
                false,
                configDir,
                HEADLESS,
                "--session",
                configDir.resolve("nope.jsonl").toString());

        assertThat(rebound.waitForExit(WAIT)).isEqualTo(2);
        assertThat(rebound.stderr()).contains("--session").contains("no such session file");
        assertThat(log()).doesNotContain("Desktop window shown");
    }
}
