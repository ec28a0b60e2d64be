package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The canary sweep finds any run of eight or more of a secret's characters, not only the whole secret. */
class SecretSweepTest {
    private static final String SECRET = "sk-canary-7d41c0ffee5e1f2a9b3c";

    @TempDir
    Path dir;

    @Test
    void findsTheWholeSecretItsStartItsEndAndAnyPieceOfEightCharacters() {
        List<String> secrets = List.of("other-secret-0000", SECRET);
        for (String text : List.of(
                "key " + SECRET + " sent",
                "cut: " + SECRET.substring(0, 8) + "…",
                "end: " + SECRET.substring(SECRET.length() - 8),
                "middle " + SECRET.substring(11, 19) + " only")) {
            assertThat(SecretSweep.pieceOf(secrets, text)).as(text).isPresent();
        }
        assertThat(SecretSweep.pieceOf(secrets, "seven " + SECRET.substring(11, 18) + " and [redacted]"))
                .isEmpty();
    }

    @Test
    void aFilePieceFailsTheSweepButTheCredentialsAndSettingsFilesAreWhereSecretsBelong() throws Exception {
        Files.writeString(dir.resolve("credentials.json"), SECRET);
        Files.writeString(dir.resolve("settings.json"), SECRET);
        Files.writeString(dir.resolve("chat.jsonl"), "fine");
        SecretSweep.assertFilesClean(List.of(SECRET), dir);

        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("logs/rebound.log"), "POST http://u:" + SECRET.substring(3, 12) + "@host");
        assertThatThrownBy(() -> SecretSweep.assertFilesClean(List.of(SECRET), dir))
                .hasMessageContaining("logs/rebound.log");
    }
}
