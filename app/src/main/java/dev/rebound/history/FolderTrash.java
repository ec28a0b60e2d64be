package dev.rebound.history;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;

/**
 * A trash folder of Rebound's own ({@code <config-dir>/trash/sessions/}), for platforms without a trash Rebound can
 * use. A file keeps its name there; when that name is taken, {@code -2}, {@code -3}... is added before the extension
 * ({@code abc-2.jsonl}). Nothing in the folder is ever overwritten.
 */
public final class FolderTrash implements SessionTrash {
    private final Path dir;

    /** A trash in that folder, created (owner-only where POSIX) on first use. */
    public FolderTrash(Path dir) {
        this.dir = Objects.requireNonNull(dir, "dir").toAbsolutePath();
    }

    /** The folder. */
    public Path dir() {
        return dir;
    }

    @Override
    public Optional<Path> moveToTrash(Path file) throws IOException {
        createDir();
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String extension = dot > 0 ? name.substring(dot) : "";
        Path target = dir.resolve(name);
        for (int n = 2; ; n++) {
            try {
                // Without REPLACE_EXISTING a taken name fails, so a file in the trash is never replaced.
                return Optional.of(Files.move(file, target));
            } catch (FileAlreadyExistsException e) {
                target = dir.resolve(stem + "-" + n + extension);
            }
        }
    }

    private void createDir() throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createDirectories(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(dir);
        }
    }
}
