package dev.rebound.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Excludes every other writer of a file, in this process and in others: the OS lock of {@code <name>.lock} next to it
 * (created owner-only), taken under one monitor per lock file for the whole process.
 *
 * <p>{@link FileChannel#lock()} cannot exclude threads of the same process (it throws
 * {@code OverlappingFileLockException} instead), and on POSIX closing any channel of a file releases every lock the
 * process holds on it; so this process opens one lock channel per file at a time.
 */
public final class FileLocks {
    private static final Map<Path, Object> PROCESS_LOCKS = new ConcurrentHashMap<>();

    private FileLocks() {}

    /** What runs under the lock. */
    @FunctionalInterface
    public interface Locked<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code action} while holding the lock of {@code file}.
     *
     * @throws IOException when the lock could not be taken, or what the action threw
     */
    public static <T> T underLock(Path file, Locked<T> action) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
        // The real path: two paths to one file (a symbolic link) must share one monitor.
        Path identity = file.toAbsolutePath().getParent().toRealPath().resolve(lockFile.getFileName());
        synchronized (PROCESS_LOCKS.computeIfAbsent(identity, path -> new Object())) {
            try (FileChannel channel = open(lockFile);
                    FileLock ignored = channel.lock()) {
                return action.run();
            }
        }
    }

    private static FileChannel open(Path lockFile) throws IOException {
        FileAttribute<?>[] ownerOnly =
                lockFile.getFileSystem().supportedFileAttributeViews().contains("posix")
                        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(AtomicFiles.OWNER_ONLY)}
                        : new FileAttribute<?>[0];
        return FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), ownerOnly);
    }
}
