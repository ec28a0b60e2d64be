package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveUnpackerTest {
    @TempDir
    Path dir;

    private Path zip(String... entries) throws IOException {
        Path zip = dir.resolve("plugin.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            for (String entry : entries) {
                out.putNextEntry(new ZipEntry(entry));
                out.write(entry.getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return zip;
    }

    @Test
    void unpacksIntoAnEmptiedFolder() throws IOException {
        Path target = dir.resolve("out");
        Files.createDirectories(target.resolve("classes"));
        Files.writeString(target.resolve("classes/Stale.class"), "old");

        ArchiveUnpacker.unpack(zip("plugin.properties", "classes/a/B.class"), target);

        assertThat(target.resolve("plugin.properties")).hasContent("plugin.properties");
        assertThat(target.resolve("classes/a/B.class")).exists();
        assertThat(target.resolve("classes/Stale.class")).doesNotExist();
    }

    @Test
    void anEntryThatWouldLandOutsideTheFolderMakesTheArchiveInvalid() throws IOException {
        Path zip = zip("plugin.properties", "../escaped.txt");
        assertThatThrownBy(() -> ArchiveUnpacker.unpack(zip, dir.resolve("out")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("../escaped.txt points outside the archive");
        assertThat(dir.resolve("escaped.txt")).doesNotExist();
    }

    @Test
    void aFileThatIsNotAZipIsRefused() throws IOException {
        Path notZip = Files.writeString(dir.resolve("notes.zip"), "just text");
        assertThatThrownBy(() -> ArchiveUnpacker.unpack(notZip, dir.resolve("out")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not a zip archive");
    }
}
