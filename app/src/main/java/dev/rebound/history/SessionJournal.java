package dev.rebound.history;

import dev.rebound.files.AtomicFiles;
import dev.rebound.json.WireJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends entries to one session file. Each entry is one line, written with a single write and then forced to disk
 * ({@link FileChannel#force(boolean) force(false)}) before {@link #append} returns: a kill or a power cut never loses a
 * completed entry, and at worst leaves the line being written cut short, which loading reports and skips. The file is
 * only ever appended to. Thread-safe; one channel is kept open until {@link #close()}.
 *
 * <p>A file's directory entry and header are made durable with the first entry this journal appends (the file and its
 * directory synced), not when a new file is created: a new chat's first request waits for two disk syncs instead of
 * three, and an RPC session is ready before any. A power cut before the first entry can lose only a chat that held
 * nothing; a kill loses nothing (the header is in the system's cache). A resumed file is treated the same way, since
 * the process that created it may have ended before its first entry.
 *
 * <p>Entry ids are the caller's: the journal does not check them (the loader keeps the first of two entries with one
 * id). Two journals of one file, in one process or two, interleave whole lines but not in a meaningful order; the
 * session core keeps one journal per open session.
 */
public final class SessionJournal implements JournalWriter {
    private static final Logger LOG = LoggerFactory.getLogger(SessionJournal.class);
    private static final FileAttribute<?>[] NO_ATTRIBUTES = new FileAttribute<?>[0];

    private final Path file;
    private final FileChannel channel;
    private final JournalCodec codec;
    private final Object lock = new Object();
    /** A write failed part-way, so the file may end inside a line; guarded by {@link #lock}. */
    private boolean mayEndInsideLine;
    /** Guarded by {@link #lock}. */
    private boolean closed;
    /**
     * Whether this journal has forced the file with its metadata and tried to sync its directory (a directory that
     * cannot be synced is logged, not retried): false until its first entry; guarded by {@link #lock}.
     */
    private boolean synced;

    /** Held while the journal is open, so no second writer appends to the same file. */
    private final FileLockHandle held;

    private SessionJournal(Path file, FileChannel channel, JournalCodec codec, FileLockHandle held) {
        this.file = file;
        this.channel = channel;
        this.codec = codec;
        this.held = held;
    }

    /**
     * Creates the file of a new session, {@code <sessionsDir>/<sessionId>.jsonl}, with its header line, and opens it
     * for appending. Creates the directory if needed ({@code 0700} where the file system has POSIX permissions); the
     * file is {@code 0600} there.
     *
     * @param titleOrNull the title known at creation, or null
     * @throws FileAlreadyExistsException when the session's file exists: it is never overwritten
     * @throws IllegalArgumentException when the id is not a valid session id ({@link SessionFiles#isValidId})
     */
    public static SessionJournal create(Path sessionsDir, String sessionId, long createdMs, String titleOrNull)
            throws IOException {
        return create(sessionsDir, sessionId, createdMs, titleOrNull, new JournalCodec(new WireJson()));
    }

    /**
     * Like {@link #create(Path, String, long, String)}, writing with {@code codec}: one codec shared by an app's
     * journals builds its JSON serializers once, not once per chat.
     */
    public static SessionJournal create(
            Path sessionsDir, String sessionId, long createdMs, String titleOrNull, JournalCodec codec)
            throws IOException {
        Path file = SessionFiles.fileOf(sessionsDir, sessionId).toAbsolutePath();
        boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
        Path dir = file.getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(
                    dir,
                    posix
                            ? new FileAttribute<?>[] {
                                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))
                            }
                            : NO_ATTRIBUTES);
        }
        byte[] header = codec.encodeHeader(SessionHeader.of(sessionId, createdMs, titleOrNull));
        FileChannel channel = FileChannel.open(
                file,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.APPEND),
                posix
                        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(AtomicFiles.OWNER_ONLY)}
                        : NO_ATTRIBUTES);
        FileLockHandle held = null;
        try {
            held = FileLockHandle.acquire(file);
            writeFully(channel, header);
            return new SessionJournal(file, channel, codec, held);
        } catch (IOException | RuntimeException e) {
            channel.close();
            if (held != null) {
                held.close();
            }
            // A header that could not be written (a full disk) must not leave an empty session behind.
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * Opens an existing session file to append to it (a resumed session). If the file does not end with {@code \n} (the
     * app stopped while writing a line), a {@code \n} is appended first: the cut line stays as it was, is reported when
     * the file is loaded, and new entries start on a line of their own.
     *
     * @throws NoSuchFileException when there is no such file
     */
    public static SessionJournal openForAppend(Path file) throws IOException {
        return openForAppend(file, new JournalCodec(new WireJson()));
    }

    /**
     * Like {@link #openForAppend(Path)}, writing with {@code codec}: one codec shared by an app's journals builds its
     * JSON serializers once.
     */
    public static SessionJournal openForAppend(Path file, JournalCodec codec) throws IOException {
        Path absolute = file.toAbsolutePath();
        FileLockHandle held = FileLockHandle.acquire(absolute);
        FileChannel channel;
        try {
            channel = FileChannel.open(absolute, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        } catch (IOException | RuntimeException e) {
            held.close();
            throw e;
        }
        try {
            SessionJournal journal = new SessionJournal(absolute, channel, codec, held);
            synchronized (journal.lock) {
                journal.endCutLine();
            }
            return journal;
        } catch (IOException | RuntimeException e) {
            channel.close();
            held.close();
            throw e;
        }
    }

    /** The largest file {@link #reopenEmpty} reads: a header line is a few hundred bytes. */
    private static final int MAX_HEADER_BYTES = 64 * 1024;

    /**
     * A session file reopened for appending, with its header.
     *
     * @param journal appends to the file, holding its lock
     * @param header the file's only line
     */
    public record Reopened(SessionJournal journal, SessionHeader header) {}

    /**
     * Reopens {@code file} for appending if it holds nothing but its header: a chat that was started and never
     * written to (a window closed before its first message, or a process ended by a kill). Empty, leaving the file as
     * it is, when it holds anything else (an entry, a header with a title, a damaged or cut line, a header of another
     * session id or format version), is larger than a header can be, or is open in another window or process.
     *
     * @throws IOException when the file cannot be read (a missing file is empty, not an error)
     */
    public static Optional<Reopened> reopenEmpty(Path file, JournalCodec codec) throws IOException {
        Path absolute = file.toAbsolutePath();
        Optional<String> id = SessionFiles.idOf(absolute);
        // Looked at first without the lock, so a chat that holds anything is never locked, not even for a moment.
        if (id.isEmpty() || onlyHeader(absolute, id.get(), codec) == null) {
            return Optional.empty();
        }
        FileLockHandle held;
        try {
            held = FileLockHandle.acquire(absolute);
        } catch (IOException e) {
            LOG.debug("{} is not reused: {}", absolute, e.getMessage());
            return Optional.empty();
        }
        try {
            // Again under the lock: no other journal can append between this look and the reopening below.
            SessionHeader header = onlyHeader(absolute, id.get(), codec);
            if (header == null) {
                held.close();
                return Optional.empty();
            }
            FileChannel channel = FileChannel.open(absolute, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            return Optional.of(new Reopened(new SessionJournal(absolute, channel, codec, held), header));
        } catch (IOException | RuntimeException e) {
            held.close();
            throw e;
        }
    }

    /**
     * The header of {@code file} when it is the file's only line, of this format version, of session {@code id} and
     * without a title; else (or when there is no such file) null. Reads at most {@link #MAX_HEADER_BYTES} + 1 bytes.
     */
    private static SessionHeader onlyHeader(Path file, String id, JournalCodec codec) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_HEADER_BYTES + 1);
        } catch (NoSuchFileException e) {
            return null;
        }
        int end = bytes.length - 1;
        if (bytes.length > MAX_HEADER_BYTES || end <= 0 || bytes[end] != '\n' || indexOf(bytes, (byte) '\n') != end) {
            return null;
        }
        return codec.decode(bytes, 0, end) instanceof JournalCodec.HeaderLine(SessionHeader h)
                        && h.version() == SessionHeader.CURRENT_VERSION
                        && h.id().equals(id)
                        && h.title() == null
                ? h
                : null;
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** The session file. */
    public Path file() {
        return file;
    }

    /**
     * Appends one entry as one line and forces it to disk.
     *
     * @throws IOException when it could not be written (disk full...): the entry may be missing or cut short, and the
     *     next append starts on a new line
     * @throws IllegalStateException after {@link #close()}
     */
    public void append(JournalEntry entry) throws IOException {
        byte[] line = codec.encode(Objects.requireNonNull(entry, "entry"));
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the journal of " + file + " is closed");
            }
            if (mayEndInsideLine) {
                endCutLine();
            }
            mayEndInsideLine = true;
            writeFully(channel, line);
            if (synced) {
                channel.force(false);
            } else {
                channel.force(true);
                syncDirectory(file.getParent());
                synced = true;
            }
            mayEndInsideLine = false;
        }
    }

    /** Closes the file. Appending afterwards fails; closing twice does nothing. */
    @Override
    public void close() throws IOException {
        synchronized (lock) {
            if (!closed) {
                closed = true;
                try {
                    channel.close();
                } finally {
                    held.close();
                }
            }
        }
    }

    /** Appends {@code \n} if the file does not end with one; guarded by {@link #lock}. */
    private void endCutLine() throws IOException {
        if (!endsInsideLine(file)) {
            return;
        }
        LOG.warn(
                "{} ends inside a line (the app may have stopped while writing it); it is kept as it is and new "
                        + "entries start on the next line",
                file);
        writeFully(channel, new byte[] {'\n'});
        channel.force(false);
    }

    private static boolean endsInsideLine(Path file) throws IOException {
        try (SeekableByteChannel reader = Files.newByteChannel(file, StandardOpenOption.READ)) {
            long size = reader.size();
            if (size == 0) {
                return false;
            }
            ByteBuffer last = ByteBuffer.allocate(1);
            reader.position(size - 1);
            return reader.read(last) == 1 && last.get(0) != '\n';
        }
    }

    private static void writeFully(FileChannel channel, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /** Makes a new file's directory entry durable where the platform can sync a directory (not on Windows). */
    private static void syncDirectory(Path dir) {
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException e) {
            LOG.debug("could not sync directory {} after creating a session file: {}", dir, e.toString());
        }
    }
}
