package dev.rebound.bundled.journal;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal file, JSON Lines. Each record is written with one append and the file closed again, so a finished
 * chain is in the operating system's hands before the listener returns and no handle stays open. A failure to write
 * is logged once (again only after a write has worked in between) and never thrown.
 */
final class JournalFile {

    private static final Logger LOG = LoggerFactory.getLogger(JournalFile.class);

    private final Path file;
    private final ObjectWriter writer = JsonMapper.builder().build().writerFor(JournalRecord.class);
    private boolean failing;
    /** Whether a file made by an earlier version (0644) was made owner-only already. */
    private boolean checkedMode;

    private static final Set<StandardOpenOption> APPEND_OPTIONS =
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    JournalFile(Path file) {
        this.file = file;
    }

    Path path() {
        return file;
    }

    /** Error texts are journaled: the file is created owner-only (0600) where the file system has POSIX modes. */
    private static FileAttribute<?>[] ownerOnly(Path file) {
        return posix(file)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
    }

    private static boolean posix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** A journal an earlier version created with the default mode is made owner-only too. */
    private static void tightenMode(Path file) throws IOException {
        if (posix(file) && !Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        }
    }

    /** Appends the record as one line; on failure logs (once per outage) and drops the record. */
    void append(JournalRecord journalRecord) {
        try {
            byte[] line = (writer.writeValueAsString(journalRecord) + "\n").getBytes(StandardCharsets.UTF_8);
            Files.createDirectories(file.getParent());
            try (SeekableByteChannel channel = Files.newByteChannel(file, APPEND_OPTIONS, ownerOnly(file))) {
                ByteBuffer buffer = ByteBuffer.wrap(line);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
            if (!checkedMode) {
                tightenMode(file);
                checkedMode = true;
            }
            if (failing) {
                failing = false;
                LOG.info("The retry journal {} can be written again; chains that ended meanwhile are not in it", file);
            }
        } catch (IOException | RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.warn(
                        "Could not write the retry journal {} ({}); retry chains are not journaled until it can be"
                                + " written. Check that the folder exists, is writable and the disk is not full.",
                        file,
                        e.toString(),
                        e);
            } else {
                LOG.debug("Retry journal {} still not writable: {}", file, e.toString());
            }
        }
    }
}
