package dev.rebound.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path tmp;

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private boolean posix() throws Exception {
        return Files.getFileStore(tmp).supportsFileAttributeView("posix");
    }

    private void assertOnlyFilesAre(String... names) throws Exception {
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(names);
        }
    }

    @Test
    void replacesTheContentAndLeavesNoTemporaryFile() throws Exception {
        Path file = tmp.resolve("settings.json");
        Files.write(file, bytes("old"));

        AtomicFiles.writeAtomically(file, bytes("new content"), null);

        assertThat(file).hasBinaryContent(bytes("new content"));
        assertOnlyFilesAre("settings.json");
    }

    @Test
    void createsTheFileAndMissingDirectories() throws Exception {
        Path file = tmp.resolve("a/b/c.json");

        AtomicFiles.writeAtomically(file, bytes("{}"), null);

        assertThat(file).hasBinaryContent(bytes("{}"));
    }

    @Test
    void givesTheRequestedPermissions() throws Exception {
        assumeTrue(posix());
        Path file = tmp.resolve("credentials.json");

        AtomicFiles.writeAtomically(file, bytes("{}"), AtomicFiles.OWNER_ONLY);

        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void keepsThePermissionsOfAReplacedFileWhenNoneAreGiven() throws Exception {
        assumeTrue(posix());
        Path file = tmp.resolve("settings.json");
        Files.write(file, bytes("old"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));

        AtomicFiles.writeAtomically(file, bytes("new"), null);

        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
    }

    @Test
    void aFailedWriteLeavesTheTargetAndNoTemporaryFile() throws Exception {
        Path target = tmp.resolve("occupied");
        Files.createDirectory(target);
        Files.write(target.resolve("inside"), bytes("x"));

        assertThatThrownBy(() -> AtomicFiles.writeAtomically(target, bytes("new"), null))
                .isInstanceOf(IOException.class);

        assertThat(target.resolve("inside")).hasBinaryContent(bytes("x"));
        assertOnlyFilesAre("occupied");
    }

    @Test
    void backupCopiesKeepTheBytesUnderATimestampedNameWithoutOverwritingEachOther() throws Exception {
        Path file = tmp.resolve("settings.json");
        Files.write(file, bytes("{ broken"));
        Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:15:00Z"), ZoneOffset.UTC);

        Path first = FileBackups.keepCopy(file, clock, null);
        Path second = FileBackups.keepCopy(file, clock, null);

        assertThat(first.getFileName()).hasToString("settings.json.bak-20261201T101500Z");
        assertThat(second.getFileName()).hasToString("settings.json.bak-20261201T101500Z-2");
        assertThat(first).hasBinaryContent(bytes("{ broken"));
        assertThat(second).hasBinaryContent(bytes("{ broken"));
        assertThat(file).hasBinaryContent(bytes("{ broken"));
    }

    @Test
    void backupCopiesCanSayWhyTheyWereKeptWithAPlainWordOnly() throws Exception {
        Path file = tmp.resolve("blocks.json");
        Files.write(file, bytes("{ broken"));
        Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:15:00Z"), ZoneOffset.UTC);

        Path copy = FileBackups.keepCopy(file, "corrupt", clock, null);

        assertThat(copy.getFileName()).hasToString("blocks.json.corrupt-20261201T101500Z");
        assertThat(copy).hasBinaryContent(bytes("{ broken"));
        assertThatThrownBy(() -> FileBackups.keepCopy(file, "../escape", clock, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertOnlyFilesAre("blocks.json", "blocks.json.corrupt-20261201T101500Z");
    }
}
