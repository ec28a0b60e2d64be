package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The canary check run after each suite class: no byte of any configured secret in the process's stdout and stderr
 * or in any file of the config directory — the log, chat files, state/, plugin data (the journal plugin's file and
 * the recording plugin's dump of every event and of the settings it was given) — except the two files where the user
 * put them: credentials.json and settings.json (and a backup copy of settings.json).
 */
final class SecretSweep {
    private SecretSweep() {}

    static void assertNowhere(List<String> secrets, ReboundProcess process, Path configDir) throws IOException {
        for (String secret : secrets) {
            assertThat(process.stdout())
                    .as("stdout holds no byte of %s", secret)
                    .doesNotContain(secret);
            assertThat(process.stderr())
                    .as("stderr holds no byte of %s", secret)
                    .doesNotContain(secret);
        }
        assertFilesClean(secrets, configDir);
    }

    static void assertFilesClean(List<String> secrets, Path configDir) throws IOException {
        int checked = 0;
        try (Stream<Path> files = Files.walk(configDir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = file.getFileName().toString();
                if (name.equals("credentials.json") || name.startsWith("settings.json")) {
                    continue;
                }
                byte[] bytes = Files.readAllBytes(file);
                if (name.endsWith(".gz")) {
                    bytes = new GZIPInputStream(new ByteArrayInputStream(bytes)).readAllBytes();
                }
                String text = new String(bytes, StandardCharsets.ISO_8859_1);
                for (String secret : secrets) {
                    assertThat(text)
                            .as("%s holds no byte of the secret %s", configDir.relativize(file), secret)
                            .doesNotContain(secret);
                }
                checked++;
            }
        }
        assertThat(checked).as("files swept under %s", configDir).isPositive();
    }
}
