package dev.rebound.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces a file whole or not at all: the content goes to a temporary file in the same directory, is flushed to disk,
 * and is then renamed over the target. A crash leaves either the old file or the new one, never a mix.
 */
public final class AtomicFiles {
    /** Read and write for the owner only ({@code 0600}). */
    public static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private static final Logger LOG = LoggerFactory.getLogger(AtomicFiles.class);

    private AtomicFiles() {}

    /**
     * Writes a file atomically, creating its directory if needed.
     *
     * @param target the file to create or replace
     * @param content its new content
     * @param permsOrNull the POSIX permissions the file gets, set on the temporary file when it is created, before any
     *     byte is written; when null, a replaced file keeps its permissions and a new one is owner-only. Ignored where
     *     the file system has no POSIX permissions.
     * @throws IOException when the file could not be written; the target is then unchanged and no temporary file remains
     */
    public static void writeAtomically(Path target, byte[] content, Set<PosixFilePermission> permsOrNull)
            throws IOException {
        Path file = target.toAbsolutePath();
        Path dir = file.getParent();
        Files.createDirectories(dir);
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        Set<PosixFilePermission> perms = permsOrNull;
        if (perms == null && posix && Files.exists(file)) {
            perms = Files.getPosixFilePermissions(file);
        }
        FileAttribute<?>[] attributes = posix && perms != null
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(perms)}
                : new FileAttribute<?>[0];
        Path temp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp", attributes);
        try {
            if (posix && perms != null) {
                // The umask may have taken bits away at creation; set exactly what was asked for.
                Files.setPosixFilePermissions(temp, perms);
            }
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            move(temp, file);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        syncDirectory(dir);
    }

    /**
     * Deletes the temporary copies {@link #writeAtomically} left next to {@code target} when the process was killed
     * between creating one and renaming it ({@code .<name>.<digits>.tmp}). Call it only while holding the lock that
     * every writer of {@code target} holds, so that no copy still being written is taken for a left one.
     *
     * @return how many were deleted
     */
    public static int removeLeftTemporaries(Path target) throws IOException {
        Path file = target.toAbsolutePath();
        String prefix = "." + file.getFileName() + ".";
        int removed = 0;
        try (java.util.stream.Stream<Path> siblings = Files.list(file.getParent())) {
            for (Path sibling : siblings.toList()) {
                String name = sibling.getFileName().toString();
                if (name.startsWith(prefix)
                        && name.endsWith(".tmp")
                        && name.length() > prefix.length() + 4
                        && name.substring(prefix.length(), name.length() - 4)
                                .chars()
                                .allMatch(Character::isDigit)
                        && Files.deleteIfExists(sibling)) {
                    removed++;
                }
            }
        }
        return removed;
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Makes the rename itself durable where the platform allows syncing a directory (not on Windows). */
    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            LOG.debug("could not sync directory {} after a write: {}", dir, e.toString());
        }
    }
}
