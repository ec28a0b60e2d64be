package dev.rebound.expiry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.expiry.ExpiryStore.Entry;
import dev.rebound.files.AtomicFiles;
import dev.rebound.files.FileBackups;
import dev.rebound.files.FileLocks;
import dev.rebound.files.FileProblem;
import dev.rebound.files.JsonFiles;
import dev.rebound.files.KeyPath;
import dev.rebound.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file of an {@link ExpiryStore}: its format (read tolerantly, checked entry by entry, rendered sorted), its stamp,
 * and the one way it is written: under the process's monitor and the OS lock of {@code <name>.lock}, reread, merged,
 * a damaged version kept aside, replaced atomically. Holds no entries itself; the store does.
 */
final class ExpiryFile {
    /** The longest key or reason accepted, in characters. */
    static final int MAX_TEXT_LENGTH = ExpiryStore.MAX_TEXT_LENGTH;

    private static final Logger LOG = LoggerFactory.getLogger(ExpiryFile.class);
    private static final int VERSION = 1;

    /** How the new content replaces the file; injectable so that tests can make the disk slow or fail. */
    @FunctionalInterface
    interface Writing {
        /** Replaces {@code file} with {@code bytes}, atomically, owner-only. */
        void write(Path file, byte[] bytes) throws IOException;

        /** The real thing: {@link AtomicFiles#writeAtomically}. */
        Writing ATOMIC = (file, bytes) -> AtomicFiles.writeAtomically(file, bytes, AtomicFiles.OWNER_ONLY);
    }

    /**
     * What a write did.
     *
     * @param reading what the file held under the lock, before the write
     * @param entries what the file holds now
     * @param stamp the file's stamp after the write
     * @param problems what went wrong on the way but did not stop the write (a damaged file kept aside)
     */
    record Written(Reading reading, Map<String, Entry> entries, FileStamp stamp, List<FileProblem> problems) {}

    private final Path file;
    private final String fileName;
    private final Clock clock;
    private final Writing writing;
    private final ObjectMapper mapper = Json.newMapper();

    ExpiryFile(Path file, Clock clock, Writing writing) {
        this.file = file;
        this.fileName = file.getFileName().toString();
        this.clock = clock;
        this.writing = writing;
    }

    Path path() {
        return file;
    }

    /**
     * Rereads the file under its locks, lets {@code change} turn what it holds into what it should hold, and writes
     * that. A damaged file is kept as {@code <name>.corrupt-<timestamp>} first.
     *
     * @param change from the entries read (empty when the file could not be read) to the entries to write
     * @throws IOException when the file could not be locked or written; it is then unchanged
     */
    Written write(Function<Reading, Map<String, Entry>> change) throws IOException {
        return FileLocks.underLock(file, () -> {
            // Always reread under the lock: a stat could miss a change made within its time granularity.
            Reading reading = read();
            List<FileProblem> problems = new ArrayList<>();
            if (reading.damaged() && Files.exists(file)) {
                Path copy = FileBackups.keepCopy(file, "corrupt", clock, AtomicFiles.OWNER_ONLY);
                problems.add(FileProblem.warning("", "the damaged content of " + file + " was kept as " + copy));
            }
            Map<String, Entry> entries = change.apply(reading);
            writing.write(file, render(entries));
            return new Written(reading, Map.copyOf(entries), stat(), problems);
        });
    }

    /**
     * What identifies one version of the file without reading it; {@link #ABSENT} when there is no file. Its {@code
     * equals} and {@code hashCode} are written out: a record's own are built from method handles on their first call,
     * about 9 ms of every start, where the stores compare stamps as they open (docs/startup.md).
     */
    record FileStamp(FileTime modified, long size, Object fileKey) {
        static final FileStamp ABSENT = new FileStamp(null, -1, null);
        static final FileStamp UNKNOWN = new FileStamp(null, -2, null);

        @Override
        public boolean equals(Object other) {
            return other instanceof FileStamp that
                    && size == that.size
                    && Objects.equals(modified, that.modified)
                    && Objects.equals(fileKey, that.fileKey);
        }

        @Override
        public int hashCode() {
            return Objects.hash(modified, size, fileKey);
        }
    }

    /**
     * What reading the file gave.
     *
     * @param entries the valid entries, expired ones included
     * @param damaged the file holds content this store would lose by rewriting it
     * @param unreadable the file could not be read at all, so its entries are unknown
     */
    record Reading(Map<String, Entry> entries, boolean damaged, boolean unreadable, List<FileProblem> problems) {}

    /** The file's current stamp, without reading it. */
    FileStamp stat() {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return new FileStamp(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey());
        } catch (NoSuchFileException e) {
            return FileStamp.ABSENT;
        } catch (IOException e) {
            LOG.debug("could not stat {}: {}", file, e.toString());
            return FileStamp.UNKNOWN;
        }
    }

    /** Reads and checks the file; never throws for bad content. */
    Reading read() {
        String startsEmpty = " Rebound goes on without its entries and keeps a copy of the file as " + fileName
                + ".corrupt-<timestamp> before it next writes it.";
        return switch (JsonFiles.read(file, mapper)) {
            case JsonFiles.Absent ignored -> new Reading(Map.of(), false, false, List.of());
            case JsonFiles.Document document -> interpret(document.root());
            case JsonFiles.Malformed m ->
                new Reading(
                        Map.of(),
                        true,
                        false,
                        List.of(FileProblem.warning(
                                "",
                                file + " is not valid JSON at line " + m.line() + ", column " + m.column() + ": "
                                        + m.detail() + "." + startsEmpty)));
            case JsonFiles.NotAnObject n ->
                new Reading(
                        Map.of(),
                        true,
                        false,
                        List.of(FileProblem.warning(
                                "",
                                file
                                        + " must hold a JSON object ({ \"version\": 1, \"entries\": { ... } }), but at line "
                                        + n.line() + ", column " + n.column() + " it holds " + n.found() + "."
                                        + startsEmpty)));
            case JsonFiles.Unreadable u ->
                new Reading(
                        Map.of(),
                        true,
                        true,
                        List.of(FileProblem.warning(
                                "",
                                "could not read " + file + " (" + u.reason()
                                        + "); Rebound keeps the entries it knew")));
        };
    }

    private Reading interpret(ObjectNode root) {
        List<FileProblem> found = new ArrayList<>();
        JsonNode version = root.get("version");
        if (version != null
                && !(version.isIntegralNumber() && version.canConvertToLong() && version.longValue() == VERSION)) {
            found.add(problemAt(
                    "version",
                    "must be " + VERSION + " (a newer Rebound may have written this file); "
                            + "Rebound reads the entries it understands"));
        }
        Map<String, Entry> valid = new HashMap<>();
        JsonNode members = root.get("entries");
        if (members != null && !members.isNull() && !members.isObject()) {
            found.add(problemAt(
                    "entries",
                    "must be an object of entries ({ \"key\": { \"until\": ..., "
                            + "\"reason\": ... } }); Rebound goes on without them"));
        } else if (members != null) {
            for (Map.Entry<String, JsonNode> member : members.properties()) {
                entryOf(member.getKey(), member.getValue(), found).ifPresent(entry -> valid.put(entry.key(), entry));
            }
        }
        return new Reading(valid, !found.isEmpty(), false, found);
    }

    private Optional<Entry> entryOf(String key, JsonNode value, List<FileProblem> found) {
        Optional<String> invalidKey = Entry.invalidKey(key);
        if (invalidKey.isPresent()) {
            // An invalid key is not quoted, not even in the key path.
            found.add(problemAt("entries", invalidKey.get() + "; entry skipped"));
            return Optional.empty();
        }
        String path = KeyPath.child("entries", key);
        if (!value.isObject()) {
            found.add(problemAt(path, "must be an object ({ \"until\": ..., \"reason\": ... }); entry skipped"));
            return Optional.empty();
        }
        JsonNode until = value.get("until");
        if (until == null || !until.isIntegralNumber() || !until.canConvertToLong()) {
            found.add(problemAt(
                    KeyPath.child(path, "until"), "must be a whole number of epoch milliseconds; " + "entry skipped"));
            return Optional.empty();
        }
        JsonNode reason = value.get("reason");
        if (reason == null || !reason.isTextual()) {
            found.add(problemAt(KeyPath.child(path, "reason"), "must be a string; entry skipped"));
            return Optional.empty();
        }
        Optional<String> invalidReason = Entry.invalidText(reason.textValue(), "reason");
        if (invalidReason.isPresent()) {
            found.add(problemAt(KeyPath.child(path, "reason"), invalidReason.get() + "; entry skipped"));
            return Optional.empty();
        }
        return Optional.of(new Entry(key, until.longValue(), reason.textValue()));
    }

    private FileProblem problemAt(String path, String message) {
        return FileProblem.warning(fileName + ": " + path, message);
    }

    private byte[] render(Map<String, Entry> entries) throws IOException {
        ObjectNode root = mapper.createObjectNode();
        root.put("version", VERSION);
        ObjectNode out = root.putObject("entries");
        for (Entry entry : new TreeMap<>(entries).values()) {
            ObjectNode member = out.putObject(entry.key());
            member.put("until", entry.until());
            member.put("until_iso", entry.untilInstant().toString());
            member.put("reason", entry.reason());
        }
        return JsonFiles.prettyBytes(mapper, root);
    }
}
