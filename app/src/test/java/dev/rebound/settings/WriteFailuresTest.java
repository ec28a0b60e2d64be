package dev.rebound.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Write failures become sentences that say what to do, with no exception names or temporary file names. */
class WriteFailuresTest {
    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("settings.json");
    }

    private static FileSystemException os(Path temp, String reason) {
        return new FileSystemException(temp.toString(), null, reason);
    }

    @Test
    void permissionDeniedSaysWhichFolderNeedsWritePermission() {
        String text = WriteFailures.explain(
                file(),
                new AccessDeniedException(dir.resolve(".settings.json.1.tmp").toString()));

        assertThat(text)
                .isEqualTo("Rebound may not write to " + dir + ". Give your user write permission on that "
                        + "folder (and on settings.json), then try again.");
    }

    @Test
    void aFullDiskAsksToFreeSpace() {
        String text = WriteFailures.explain(file(), os(dir.resolve(".settings.json.2.tmp"), "No space left on device"));

        assertThat(text).isEqualTo("The disk holding " + dir + " is full. Free some space, then try again.");
    }

    @Test
    void aFolderWhereTheFileShouldBeIsNamed() throws IOException {
        Files.createDirectories(file().resolve("in-the-way"));

        String text = WriteFailures.explain(file(), os(file(), "Directory not empty"));

        assertThat(text).isEqualTo(file() + " is a folder, not a file. Move or rename that folder, then try again.");
    }

    @Test
    void aFileAnotherProgramHoldsAsksToCloseIt() {
        String text = WriteFailures.explain(
                file(),
                os(
                        dir.resolve(".settings.json.3.tmp"),
                        "The process cannot access the file because it is being used by another process"));

        assertThat(text).isEqualTo("settings.json is in use by another program. Close that program, then try again.");
    }

    @Test
    void anythingElseSaysWhatToCheckAndNeverShowsTheExceptionOrTheTemporaryFile() {
        String text = WriteFailures.explain(file(), new IOException("fsync failed on " + dir.resolve(".x.tmp")));

        assertThat(text).startsWith(file() + " could not be written.").doesNotContain("IOException", ".tmp");
    }
}
