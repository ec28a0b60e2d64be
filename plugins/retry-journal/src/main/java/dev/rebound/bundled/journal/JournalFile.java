package dev.rebound.bundled.journal;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

    JournalFile(Path file) {
        this.file = file;
    }

    Path path() {
        return file;
    }

    /** Appends the record as one line; on failure logs (once per outage) and drops the record. */
    void append(JournalRecord journalRecord) {
        try {
            byte[] line = (writer.writeValueAsString(journalRecord) + "\n").getBytes(StandardCharsets.UTF_8);
            Files.createDirectories(file.getParent());
            Files.write(file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
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
