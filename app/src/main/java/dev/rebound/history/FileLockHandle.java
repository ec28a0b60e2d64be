package dev.rebound.history;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive right to append to one session file, held by its open journal: an OS lock on
 * {@code sessions/.locks/<file>.lock}, so that two Rebound processes (or two windows of one) never interleave their
 * turns in one chat. The lock lives in a separate file because reading the session (listing, loading) opens and
 * closes the session file itself, which would drop a POSIX lock held on it.
 */
final class FileLockHandle implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private FileLockHandle(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of a session file.
     *
     * @throws IOException when another process or window has the chat open, or the lock file cannot be made
     */
    static FileLockHandle acquire(Path sessionFile) throws IOException {
        Path dir = sessionFile.getParent().resolve(".locks");
        Files.createDirectories(dir);
        FileChannel channel = FileChannel.open(
                dir.resolve(sessionFile.getFileName() + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new IOException("the chat is open in another Rebound process");
            }
            return new FileLockHandle(channel, lock);
        } catch (OverlappingFileLockException e) {
            channel.close();
            throw new IOException("the chat is already open in this Rebound", e);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
