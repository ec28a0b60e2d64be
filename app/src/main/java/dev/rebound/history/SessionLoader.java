package dev.rebound.history;

import dev.rebound.files.FileProblem;
import dev.rebound.json.WireJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a session file, tolerating the damage a crash or a hand edit leaves. The file is streamed line by line and
 * never written to.
 *
 * <ul>
 *   <li>A line that is not a valid entry (cut short by a crash, garbage, a wrong field) is skipped with a warning that
 *       names the file and the line; every other entry is kept.</li>
 *   <li>A second entry with an id already seen is skipped with a warning: nothing is loaded twice.</li>
 *   <li>An entry of a type this version does not know (written by a newer Rebound) is kept as an
 *       {@link UnknownEntry}, with no warning.</li>
 *   <li>A missing or broken header: the session id is taken from the file name, with a warning. The file name's id
 *       also wins over a header that names another session.</li>
 * </ul>
 * Blank lines are ignored. Thread-safe.
 */
public final class SessionLoader {
    private static final Logger LOG = LoggerFactory.getLogger(SessionLoader.class);
    private static final String ID_FROM_FILE_NAME = "the session id was taken from the file name";

    private final JournalCodec codec;

    /** A loader with its own codec. */
    public SessionLoader() {
        this(new JournalCodec(new WireJson()));
    }

    /** A loader using that codec. */
    public SessionLoader(JournalCodec codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /**
     * Loads a session file.
     *
     * @throws IOException only when the file cannot be read at all (missing, no permission); bad content is reported in
     *     {@link LoadedSession#problems()}
     */
    public LoadedSession load(Path file) throws IOException {
        Reading reading = new Reading(file);
        try (InputStream in = Files.newInputStream(file)) {
            LineScanner.scan(in, reading::line);
        }
        return reading.result();
    }

    /** The state of one load. */
    private final class Reading {
        private final Path file;
        private final List<JournalEntry> entries = new ArrayList<>();
        private final Map<String, Long> lineOfId = new HashMap<>();
        private final List<FileProblem> problems = new ArrayList<>();
        /** Damaged line numbers to what is wrong with them, in file order. */
        private final Map<Long, String> damagedLines = new java.util.LinkedHashMap<>();
        /** Lines a {@link DamageNote} says were reported already. */
        private final java.util.Set<Long> noted = new java.util.HashSet<>();

        private SessionHeader header;
        private boolean seenContent;
        private final java.nio.charset.CharsetDecoder strictUtf8 = java.nio.charset.StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);

        Reading(Path file) {
            this.file = file;
        }

        void line(long number, byte[] bytes, int offset, int length, boolean terminated) {
            int start = number == 1 ? skipByteOrderMark(bytes, offset, length) : offset;
            int end = offset + length;
            if (isBlank(bytes, start, end)) {
                return;
            }
            boolean first = !seenContent;
            seenContent = true;
            JournalCodec.Line decoded = codec.decode(bytes, start, end - start);
            if (decoded instanceof JournalCodec.BadLine && !isUtf8(bytes, start, end - start)) {
                // One damaged byte must not cost the whole message: read it as U+FFFD and keep the entry.
                byte[] repaired = new String(bytes, start, end - start, java.nio.charset.StandardCharsets.UTF_8)
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
                JournalCodec.Line again = codec.decode(repaired, 0, repaired.length);
                if (again instanceof JournalCodec.EntryLine) {
                    warn(number, "holds bytes that are not UTF-8; they were read as \uFFFD and the entry was kept");
                    decoded = again;
                }
            }
            switch (decoded) {
                case JournalCodec.HeaderLine h when first -> header = h.header();
                case JournalCodec.HeaderLine _ -> warn(number, "is a second session header; it was skipped");
                case JournalCodec.EntryLine e -> {
                    if (first) {
                        warn(number, "is an entry, not a session header; " + ID_FROM_FILE_NAME);
                    }
                    add(number, e.entry());
                }
                case JournalCodec.BadLine bad
                when first ->
                    warn(number, "is not a valid session header (" + bad.reason() + "); " + ID_FROM_FILE_NAME);
                case JournalCodec.BadLine bad
                when !terminated || bad.incomplete() ->
                    warn(
                            number,
                            "is not a complete entry (the app may have stopped while writing it); it was " + "skipped");
                case JournalCodec.BadLine bad ->
                    warn(number, "is not a valid entry (" + bad.reason() + "); it was skipped");
            }
        }

        private boolean isUtf8(byte[] bytes, int start, int length) {
            for (int i = start; i < start + length; i++) {
                if (bytes[i] < 0) {
                    try {
                        strictUtf8.reset().decode(java.nio.ByteBuffer.wrap(bytes, start, length));
                        return true;
                    } catch (java.nio.charset.CharacterCodingException e) {
                        return false;
                    }
                }
            }
            return true;
        }

        private void add(long number, JournalEntry entry) {
            Long earlier = lineOfId.putIfAbsent(entry.id(), number);
            if (earlier != null) {
                warn(number, "has the same id as line " + earlier + "; it was skipped");
                return;
            }
            entries.add(entry);
            if (entry instanceof DamageNote note) {
                noted.addAll(note.lines());
            }
        }

        LoadedSession result() throws IOException {
            String fileId = SessionFiles.idOf(file).orElse(null);
            if (!seenContent) {
                problems.add(problem("the file is empty; " + ID_FROM_FILE_NAME));
            }
            if (header == null) {
                long created = entries.isEmpty()
                        ? Files.getLastModifiedTime(file).toMillis()
                        : entries.getFirst().ts();
                header = SessionHeader.of(fileId != null ? fileId : fallbackId(), created, null);
            } else if (fileId != null && !fileId.equals(header.id())) {
                problems.add(problem("the header names another session than the file name; Rebound uses the file "
                        + "name's id '" + fileId + "'"));
                header = new SessionHeader(header.version(), fileId, header.created(), header.title());
            }
            if (header.version() > SessionHeader.CURRENT_VERSION) {
                problems.add(problem("it was written by a newer Rebound (format version " + header.version()
                        + "); entries this version does not know are kept but not shown"));
            }
            List<Long> newlyDamaged = new ArrayList<>();
            for (Map.Entry<Long, String> damaged : damagedLines.entrySet()) {
                if (noted.contains(damaged.getKey())) {
                    LOG.debug(
                            "session file {}: line {} {} (reported before)",
                            file,
                            damaged.getKey(),
                            damaged.getValue());
                } else {
                    problems.add(problem("line " + damaged.getKey() + " " + damaged.getValue()));
                    newlyDamaged.add(damaged.getKey());
                }
            }
            return new LoadedSession(header, entries, problems, newlyDamaged);
        }

        private String fallbackId() {
            String name = file.getFileName().toString();
            return name.endsWith(SessionFiles.EXTENSION)
                    ? name.substring(0, name.length() - SessionFiles.EXTENSION.length())
                    : name;
        }

        /** A damaged line: reported when the result is made, unless a {@link DamageNote} says it was already. */
        private void warn(long number, String what) {
            damagedLines.put(number, what);
        }

        private FileProblem problem(String message) {
            FileProblem problem = FileProblem.warning(file.toString(), message);
            LOG.warn("session file {}", problem.describe());
            return problem;
        }
    }

    private static int skipByteOrderMark(byte[] bytes, int offset, int length) {
        boolean bom = length >= 3
                && bytes[offset] == (byte) 0xEF
                && bytes[offset + 1] == (byte) 0xBB
                && bytes[offset + 2] == (byte) 0xBF;
        return bom ? offset + 3 : offset;
    }

    private static boolean isBlank(byte[] bytes, int start, int end) {
        for (int i = start; i < end; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
