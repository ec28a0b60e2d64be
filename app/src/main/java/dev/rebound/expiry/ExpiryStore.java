package dev.rebound.expiry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.json.Json;
import dev.rebound.files.AtomicFiles;
import dev.rebound.files.FileBackups;
import dev.rebound.files.JsonFiles;
import dev.rebound.files.KeyPath;
import dev.rebound.files.FileProblem;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Until-times per key, shared by the app's sessions, persisted in one JSON file: a credential blocked after a usage
 * limit ({@code openai/work} until the limit resets), a model in cooldown after an overload. An entry is active while
 * {@code now < until} by the injected clock; an expired entry is forgotten at once in memory and dropped from the file
 * at its next write. Keys are labels and selectors, never API keys, and are written exactly as given. Keep one file per
 * kind of entry ({@code state/credential-blocks.json}, {@code state/model-cooldowns.json}) so that a credential
 * {@code provider/label} and a model {@code provider/modelId} cannot collide.
 *
 * <h2>File format</h2>
 *
 * <pre>{@code
 * {
 *   "version": 1,
 *   "entries": {
 *     "openai/work": { "until": 1796121000000, "until_iso": "2026-12-01T10:30:00Z", "reason": "usage_limit" }
 *   }
 * }
 * }</pre>
 *
 * <p>{@code until} (epoch milliseconds) is authoritative; {@code until_iso} is written for people reading the file and
 * ignored when reading. Entries are written sorted by key, pretty-printed, UTF-8, owner-only ({@code 0600}) where the
 * file system has POSIX permissions. A missing file, an empty file, {@code {}} and a missing {@code entries} all mean no
 * entries. Other top-level members and other members of an entry are ignored and not kept when the file is rewritten.
 *
 * <h2>Damaged files</h2>
 *
 * Opening and reading never throw for bad content. A file that is not JSON, holds something other than an object, has
 * a {@code version} other than 1 or an {@code entries} that is not an object, or has entries with a wrong type
 * ({@code until} not an integer, {@code reason} not a string, a key or reason with control characters or longer than
 * {@value #MAX_TEXT_LENGTH} characters) is reported in {@link #problems()} as a warning (with line and column for a
 * syntax error), and the store starts with the entries that could be read. Before Rebound next writes such a file, it
 * keeps a copy of it, byte for byte, as {@code <name>.corrupt-<UTC timestamp>}.
 *
 * <h2>Sharing</h2>
 *
 * Thread-safe. Several stores, in one process or in several (the desktop window and a script in RPC mode), may share
 * one file. Every write takes an OS lock on the sibling file {@code <name>.lock} (kept, never deleted), rereads the
 * file under it, applies this store's change to what it read and replaces the file atomically, so no writer loses
 * another's entries. Every read stats the file and rereads it only when its modification time, size or file identity
 * changed. Because each change is applied to the file's current content, the last {@code put} or {@code remove} of a
 * key wins, in any process, and a {@code remove} is never undone by another store that still remembered the entry.
 * Deleting the file clears every entry.
 *
 * <p>A write that fails (disk full, a directory in the file's place) is logged and reported in {@link #problems()};
 * the change still holds in this store and is written with its next successful write.
 */
public final class ExpiryStore implements Expiries {
    /** The longest key or reason accepted, in characters. */
    public static final int MAX_TEXT_LENGTH = 200;

    private static final Logger LOG = LoggerFactory.getLogger(ExpiryStore.class);
    private static final int VERSION = 1;
    /**
     * One monitor per lock file, for all stores of this process. {@link FileChannel#lock()} cannot exclude threads of
     * the same process (it throws {@code OverlappingFileLockException} instead), and on POSIX closing any channel of a
     * file releases every lock the process holds on it; so this process opens one lock channel per file at a time.
     */
    private static final Map<Path, Object> PROCESS_LOCKS = new ConcurrentHashMap<>();

    private final Path file;
    private final Path lockFile;
    private final String fileName;
    private final Clock clock;
    private final ObjectMapper mapper = Json.newMapper();
    private final Object lock = new Object();
    /** The file's entries as last read or written, with the unsaved changes applied; guarded by {@link #lock}. */
    private final Map<String, Entry> entries = new HashMap<>();
    /** Puts not yet written because a write failed; guarded by {@link #lock}. */
    private final Map<String, Entry> unsavedPuts = new HashMap<>();
    /** Keys of {@link #unsavedPuts} that may only lengthen an entry ({@link #extend}). */
    private final Set<String> extendOnly = new java.util.HashSet<>();
    /** Removals not yet written because a write failed; guarded by {@link #lock}. */
    private final Set<String> unsavedRemovals = new HashSet<>();
    /** Guarded by {@link #lock}. */
    private final Set<FileProblem> problems = new LinkedHashSet<>();
    /** The file as it was when last read or written; null before the first read. Guarded by {@link #lock}. */
    private FileStamp seen;

    /**
     * One until-time.
     *
     * @param key what is blocked or cooling down: a credential label, a model selector; 1 to
     *     {@value ExpiryStore#MAX_TEXT_LENGTH} characters, not blank, without control characters
     * @param until when the entry expires, in epoch milliseconds; the entry is active while {@code now < until}
     * @param reason why, as a short code ({@code usage_limit}, {@code overloaded}, {@code refusal}); never a secret; at
     *     most {@value ExpiryStore#MAX_TEXT_LENGTH} characters, without control characters, may be empty
     */
    public record Entry(String key, long until, String reason) {
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(reason, "reason");
            Optional<String> invalid = invalidKey(key).or(() -> invalidText(reason, "reason"));
            if (invalid.isPresent()) {
                throw new IllegalArgumentException(invalid.get());
            }
        }

        /** Whether the entry is still in force at that time: {@code nowEpochMs < until}. */
        public boolean activeAt(long nowEpochMs) {
            return nowEpochMs < until;
        }

        /** {@link #until} as an instant. */
        public Instant untilInstant() {
            return Instant.ofEpochMilli(until);
        }

        private static Optional<String> invalidKey(String key) {
            return key.isBlank() ? Optional.of("an expiry key must not be blank") : invalidText(key, "key");
        }

        /** Why a key or reason is refused, never quoting it: it is invalid, and may be anything. */
        private static Optional<String> invalidText(String text, String what) {
            if (text.length() > MAX_TEXT_LENGTH) {
                return Optional.of("an expiry " + what + " must be at most " + MAX_TEXT_LENGTH + " characters, not "
                        + text.length());
            }
            if (text.codePoints().anyMatch(cp -> Character.isISOControl(cp)
                    || (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE))) {
                // An unpaired surrogate cannot be written as UTF-8: the key would not read back as given.
                return Optional.of("an expiry " + what + " must not contain control characters or unpaired "
                        + "surrogates");
            }
            return Optional.empty();
        }
    }

    /** What identifies one version of the file without reading it; {@link #ABSENT} when there is no file. */
    private record FileStamp(FileTime modified, long size, Object fileKey) {
        static final FileStamp ABSENT = new FileStamp(null, -1, null);
        static final FileStamp UNKNOWN = new FileStamp(null, -2, null);
    }

    /**
     * What reading the file gave.
     *
     * @param entries the valid entries, expired ones included
     * @param damaged the file holds content this store would lose by rewriting it
     * @param unreadable the file could not be read at all, so its entries are unknown
     */
    private record Reading(Map<String, Entry> entries, boolean damaged, boolean unreadable,
                           List<FileProblem> problems) {
    }

    private ExpiryStore(Path file, Clock clock) {
        this.file = file;
        this.lockFile = file.resolveSibling(file.getFileName() + ".lock");
        this.fileName = file.getFileName().toString();
        this.clock = clock;
    }

    /**
     * Opens the store kept in a file (usually in the config directory's {@code state/}). Never throws for bad content:
     * a missing file is an empty store, a damaged one is reported in {@link #problems()}. Writes nothing.
     */
    public static ExpiryStore open(Path file, Clock clock) {
        Objects.requireNonNull(file, "file");
        ExpiryStore store = new ExpiryStore(file.toAbsolutePath().normalize(), Objects.requireNonNull(clock, "clock"));
        synchronized (store.lock) {
            store.refreshIfChanged();
        }
        return store;
    }

    /** The file this store reads and writes. */
    public Path file() {
        return file;
    }

    /**
     * Sets the entry of a key and writes the file at once. A later put replaces an earlier one, even one that ends
     * later: the caller decides (read {@link #get} first to keep the longer of two). A put whose {@code until} is not
     * after now clears the key.
     *
     * @throws IllegalArgumentException when the key or reason is not valid (see {@link Entry})
     */
    public void put(String key, long untilEpochMs, String reason) {
        Entry entry = new Entry(key, untilEpochMs, reason);
        synchronized (lock) {
            extendOnly.remove(key);
            if (entry.activeAt(clock.millis())) {
                unsavedRemovals.remove(key);
                unsavedPuts.put(key, entry);
            } else {
                unsavedPuts.remove(key);
                unsavedRemovals.add(key);
            }
            writeThrough();
        }
    }

    /**
     * Sets the entry unless it already ends later — here or in the file, as another process left it (the comparison is
     * made under the file lock). A block or cooldown is never shortened by a later, shorter one; an end time in the
     * past changes nothing.
     */
    @Override
    public void extend(String key, long untilEpochMs, String reason) {
        Entry entry = new Entry(key, untilEpochMs, reason);
        synchronized (lock) {
            if (!entry.activeAt(clock.millis())) {
                return;
            }
            Entry pendingPut = unsavedPuts.get(key);
            if (pendingPut != null && !extendOnly.contains(key) && pendingPut.until() >= untilEpochMs) {
                return;
            }
            unsavedRemovals.remove(key);
            unsavedPuts.put(key, entry);
            extendOnly.add(key);
            writeThrough();
        }
    }

    /** Forgets the entry of a key, if any, and writes the file at once. */
    public void remove(String key) {
        Objects.requireNonNull(key, "key");
        synchronized (lock) {
            unsavedPuts.remove(key);
            extendOnly.remove(key);
            unsavedRemovals.add(key);
            writeThrough();
        }
    }

    /** The entry of a key, if it has not expired. Rereads the file first if another store changed it. */
    @Override
    public Optional<Entry> get(String key) {
        Objects.requireNonNull(key, "key");
        synchronized (lock) {
            refreshIfChanged();
            forgetExpired();
            return Optional.ofNullable(entries.get(key));
        }
    }

    /** Every entry that has not expired, by key, sorted; an immutable snapshot. */
    public Map<String, Entry> active() {
        synchronized (lock) {
            refreshIfChanged();
            forgetExpired();
            return Collections.unmodifiableMap(new TreeMap<>(entries));
        }
    }

    /** Warnings about the file found since the store was opened (damaged content, failed writes), oldest first. */
    public List<FileProblem> problems() {
        synchronized (lock) {
            return List.copyOf(problems);
        }
    }

    private void refreshIfChanged() {
        FileStamp now = stat();
        if (!now.equals(seen)) {
            adopt(read(), now);
        }
    }

    /** Takes what was read from the file as this store's entries, then applies the changes not yet written. */
    private void adopt(Reading reading, FileStamp stamp) {
        seen = stamp;
        reading.problems().forEach(this::report);
        if (!reading.unreadable()) {
            entries.clear();
            entries.putAll(reading.entries());
        }
        applyUnsaved();
    }

    private void applyUnsaved() {
        unsavedRemovals.forEach(entries::remove);
        for (Entry e : unsavedPuts.values()) {
            if (extendOnly.contains(e.key())) {
                entries.merge(e.key(), e, (had, wanted) -> had.until() >= wanted.until() ? had : wanted);
            } else {
                entries.put(e.key(), e);
            }
        }
        forgetExpired();
    }

    private void forgetExpired() {
        long now = clock.millis();
        entries.values().removeIf(entry -> !entry.activeAt(now));
        // An unsaved put that expires still replaced what the file holds for its key.
        for (Iterator<Entry> it = unsavedPuts.values().iterator(); it.hasNext(); ) {
            Entry entry = it.next();
            if (!entry.activeAt(now)) {
                unsavedRemovals.add(entry.key());
                it.remove();
            }
        }
    }

    /** Applies the unsaved changes to the file's current content and writes the result, under the file lock. */
    private void writeThrough() {
        try {
            Files.createDirectories(file.getParent());
            // The real path: two paths to one file (a symbolic link) must share one monitor.
            Path lockIdentity = file.getParent().toRealPath().resolve(lockFile.getFileName());
            synchronized (PROCESS_LOCKS.computeIfAbsent(lockIdentity, path -> new Object())) {
                try (FileChannel channel = openLockFile(); FileLock ignored = channel.lock()) {
                    // Always reread under the lock: a stat could miss a change made within its time granularity.
                    FileStamp before = stat();
                    Reading reading = read();
                    adopt(reading, before);
                    if (reading.damaged() && Files.exists(file)) {
                        Path copy = FileBackups.keepCopy(file, "corrupt", clock, AtomicFiles.OWNER_ONLY);
                        report(FileProblem.warning("", "the damaged content of " + file + " was kept as " + copy));
                    }
                    AtomicFiles.writeAtomically(file, render(), AtomicFiles.OWNER_ONLY);
                    seen = stat();
                    unsavedPuts.clear();
                    extendOnly.clear();
                    unsavedRemovals.clear();
                }
            }
        } catch (IOException e) {
            applyUnsaved();
            report(FileProblem.warning("", "could not save " + file + " (" + e
                    + "); the change holds until Rebound stops and is saved with the next change"));
        }
    }

    private FileChannel openLockFile() throws IOException {
        FileAttribute<?>[] ownerOnly = lockFile.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(AtomicFiles.OWNER_ONLY)}
                : new FileAttribute<?>[0];
        return FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), ownerOnly);
    }

    private FileStamp stat() {
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

    private Reading read() {
        String startsEmpty = " Rebound goes on without its entries and keeps a copy of the file as " + fileName
                + ".corrupt-<timestamp> before it next writes it.";
        return switch (JsonFiles.read(file, mapper)) {
            case JsonFiles.Absent ignored -> new Reading(Map.of(), false, false, List.of());
            case JsonFiles.Document document -> interpret(document.root());
            case JsonFiles.Malformed m -> new Reading(Map.of(), true, false, List.of(FileProblem.warning("",
                    file + " is not valid JSON at line " + m.line() + ", column " + m.column() + ": " + m.detail()
                            + "." + startsEmpty)));
            case JsonFiles.NotAnObject n -> new Reading(Map.of(), true, false, List.of(FileProblem.warning("",
                    file + " must hold a JSON object ({ \"version\": 1, \"entries\": { ... } }), but at line "
                            + n.line() + ", column " + n.column() + " it holds " + n.found() + "." + startsEmpty)));
            case JsonFiles.Unreadable u -> new Reading(Map.of(), true, true, List.of(FileProblem.warning("",
                    "could not read " + file + " (" + u.reason() + "); Rebound keeps the entries it knew")));
        };
    }

    private Reading interpret(ObjectNode root) {
        List<FileProblem> found = new ArrayList<>();
        JsonNode version = root.get("version");
        if (version != null && !(version.isIntegralNumber() && version.canConvertToLong()
                && version.longValue() == VERSION)) {
            found.add(problemAt("version", "must be " + VERSION + " (a newer Rebound may have written this file); "
                    + "Rebound reads the entries it understands"));
        }
        Map<String, Entry> valid = new HashMap<>();
        JsonNode members = root.get("entries");
        if (members != null && !members.isNull() && !members.isObject()) {
            found.add(problemAt("entries", "must be an object of entries ({ \"key\": { \"until\": ..., "
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
            found.add(problemAt(KeyPath.child(path, "until"), "must be a whole number of epoch milliseconds; "
                    + "entry skipped"));
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

    private byte[] render() throws IOException {
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

    private void report(FileProblem problem) {
        if (problems.add(problem)) {
            LOG.warn("state: {}", problem.describe());
        }
    }
}
