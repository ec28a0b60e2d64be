package dev.rebound.expiry;

import dev.rebound.files.FileProblem;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
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
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
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
 * <h2>Never waiting on the disk</h2>
 *
 * Every change is made in memory at once, where every reader of this store sees it, and written by the store's writer
 * (an {@link Executor} given at {@link #open(Path, Clock, Executor) open}) afterwards: a retry decision that blocks a
 * key never waits for a lock file or an fsync, and neither does anyone reading the store meanwhile (the state of
 * another chat, a status line). Changes made while a write runs are written together by the next one. With
 * {@link #open(Path, Clock)} the writer is the caller's own thread, as before. {@link #flush()} writes what is pending
 * on the caller's thread (at shutdown, in tests). Reads still stat the file (and reread it when another process
 * changed it) under this store's lock, so a read waits for a slow file system, though never for a write.
 *
 * <p>A write that fails (disk full, a directory in the file's place) is logged and reported in {@link #problems()};
 * the change still holds in this store and is written with its next successful write.
 */
public final class ExpiryStore implements Expiries {
    /** The longest key or reason accepted, in characters. */
    public static final int MAX_TEXT_LENGTH = 200;

    private static final Logger LOG = LoggerFactory.getLogger(ExpiryStore.class);

    private final ExpiryFile disk;
    private final Clock clock;
    private final Executor writer;
    /** Guards the fields below; never held while the file is locked or written. */
    private final Object lock = new Object();
    /** One write of this store at a time; held by the writer while it locks and writes the file. */
    private final Object writing = new Object();
    /** The file's entries as last read or written, with the unsaved changes applied; guarded by {@link #lock}. */
    private final Map<String, Entry> entries = new HashMap<>();
    /** Puts not yet written; guarded by {@link #lock}. */
    private final Map<String, Entry> unsavedPuts = new HashMap<>();
    /** Keys of {@link #unsavedPuts} that may only lengthen an entry ({@link #extend}); guarded by {@link #lock}. */
    private final Set<String> extendOnly = new HashSet<>();
    /** Removals not yet written; guarded by {@link #lock}. */
    private final Set<String> unsavedRemovals = new HashSet<>();
    /** Guarded by {@link #lock}. */
    private final Set<FileProblem> problems = new LinkedHashSet<>();
    /** The file as it was when last read or written; null before the first read. Guarded by {@link #lock}. */
    private ExpiryFile.FileStamp seen;
    /** Whether a write has been handed to the writer and has not started taking changes yet; guarded by lock. */
    private boolean writeQueued;

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

        static Optional<String> invalidKey(String key) {
            return key.isBlank() ? Optional.of("an expiry key must not be blank") : invalidText(key, "key");
        }

        /** Why a key or reason is refused, never quoting it: it is invalid, and may be anything. */
        static Optional<String> invalidText(String text, String what) {
            if (text.length() > MAX_TEXT_LENGTH) {
                return Optional.of("an expiry " + what + " must be at most " + MAX_TEXT_LENGTH + " characters, not "
                        + text.length());
            }
            if (text.codePoints()
                    .anyMatch(cp -> Character.isISOControl(cp)
                            || (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE))) {
                // An unpaired surrogate cannot be written as UTF-8: the key would not read back as given.
                return Optional.of(
                        "an expiry " + what + " must not contain control characters or unpaired " + "surrogates");
            }
            return Optional.empty();
        }
    }

    private ExpiryStore(ExpiryFile disk, Clock clock, Executor writer) {
        this.disk = disk;
        this.clock = clock;
        this.writer = writer;
    }

    /**
     * Opens the store kept in a file (usually in the config directory's {@code state/}), written on the caller's
     * thread. Never throws for bad content: a missing file is an empty store, a damaged one is reported in
     * {@link #problems()}. Writes nothing.
     */
    public static ExpiryStore open(Path file, Clock clock) {
        return open(file, clock, Runnable::run);
    }

    /** Like {@link #open(Path, Clock)}, with writes made by {@code writer} after each change (see the class doc). */
    public static ExpiryStore open(Path file, Clock clock, Executor writer) {
        return open(file, clock, writer, ExpiryFile.Writing.ATOMIC);
    }

    /** Like {@link #open(Path, Clock, Executor)}, with the step that replaces the file given (tests slow it down). */
    static ExpiryStore open(Path file, Clock clock, Executor writer, ExpiryFile.Writing writing) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(clock, "clock");
        ExpiryStore store = new ExpiryStore(
                new ExpiryFile(file.toAbsolutePath().normalize(), clock, Objects.requireNonNull(writing, "writing")),
                clock,
                Objects.requireNonNull(writer, "writer"));
        synchronized (store.lock) {
            store.refreshIfChanged();
        }
        return store;
    }

    /** The file this store reads and writes. */
    public Path file() {
        return disk.path();
    }

    /**
     * Sets the entry of a key, at once for every reader, and has it written. A later put replaces an earlier one,
     * even one that ends later: the caller decides (read {@link #get} first to keep the longer of two). A put whose
     * {@code until} is not after now clears the key.
     *
     * @throws IllegalArgumentException when the key or reason is not valid (see {@link Entry})
     */
    public void put(String key, long untilEpochMs, String reason) {
        Entry entry = new Entry(key, untilEpochMs, reason);
        boolean schedule;
        synchronized (lock) {
            extendOnly.remove(key);
            if (entry.activeAt(clock.millis())) {
                unsavedRemovals.remove(key);
                unsavedPuts.put(key, entry);
            } else {
                unsavedPuts.remove(key);
                unsavedRemovals.add(key);
            }
            schedule = changed();
        }
        scheduleWrite(schedule);
    }

    /**
     * Sets the entry unless it already ends later — here or in the file, as another process left it (the comparison is
     * made again under the file lock when it is written). A block or cooldown is never shortened by a later, shorter
     * one; an end time in the past changes nothing.
     */
    @Override
    public void extend(String key, long untilEpochMs, String reason) {
        Entry entry = new Entry(key, untilEpochMs, reason);
        boolean schedule;
        synchronized (lock) {
            if (!entry.activeAt(clock.millis())) {
                return;
            }
            // An unwritten change that already ends as late or later stays: a shorter extend never shortens it.
            Entry pendingPut = unsavedPuts.get(key);
            if (pendingPut != null && pendingPut.until() >= untilEpochMs) {
                return;
            }
            // After an unwritten remove or put, this store has decided the key's value: the extend replaces what the
            // file holds. Otherwise it only lengthens it.
            boolean decided = unsavedRemovals.remove(key) || (pendingPut != null && !extendOnly.contains(key));
            unsavedPuts.put(key, entry);
            if (!decided) {
                extendOnly.add(key);
            }
            schedule = changed();
        }
        scheduleWrite(schedule);
    }

    /** Forgets the entry of a key, if any, at once for every reader, and has the removal written. */
    public void remove(String key) {
        Objects.requireNonNull(key, "key");
        boolean schedule;
        synchronized (lock) {
            unsavedPuts.remove(key);
            extendOnly.remove(key);
            unsavedRemovals.add(key);
            schedule = changed();
        }
        scheduleWrite(schedule);
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

    /** Writes the changes not yet written, on the caller's thread, after any write already running. */
    public void flush() {
        writeOut();
    }

    /** Applies a change just made to the entries and says whether a write must be handed to the writer. */
    private boolean changed() {
        applyUnsaved();
        if (writeQueued) {
            return false;
        }
        writeQueued = true;
        return true;
    }

    private void scheduleWrite(boolean schedule) {
        if (!schedule) {
            return;
        }
        try {
            writer.execute(this::writeOut);
        } catch (RejectedExecutionException e) {
            writeOut(); // the writer has shut down (the app is stopping): write here rather than lose the change
        }
    }

    /** Writes every change made so far, under the file's locks, then drops from the unsaved ones what it wrote. */
    private void writeOut() {
        synchronized (writing) {
            Map<String, Entry> puts;
            Set<String> extending;
            Set<String> removals;
            Map<String, Entry> known;
            synchronized (lock) {
                writeQueued = false;
                if (unsavedPuts.isEmpty() && unsavedRemovals.isEmpty()) {
                    return;
                }
                puts = Map.copyOf(unsavedPuts);
                extending = Set.copyOf(extendOnly);
                removals = Set.copyOf(unsavedRemovals);
                known = Map.copyOf(entries);
            }
            ExpiryFile.Written written;
            try {
                written = disk.write(reading -> {
                    Map<String, Entry> next = new HashMap<>(reading.unreadable() ? known : reading.entries());
                    apply(next, puts, extending, removals);
                    long now = clock.millis();
                    next.values().removeIf(entry -> !entry.activeAt(now));
                    return next;
                });
            } catch (IOException e) {
                synchronized (lock) {
                    report(FileProblem.warning(
                            "",
                            "could not save " + disk.path() + " (" + e
                                    + "); the change holds until Rebound stops and is saved with the next change"));
                }
                return;
            }
            synchronized (lock) {
                written.reading().problems().forEach(this::report);
                written.problems().forEach(this::report);
                // What changed again while the file was written stays unsaved, for the next write.
                puts.forEach((key, entry) -> {
                    if (unsavedPuts.get(key) == entry) {
                        unsavedPuts.remove(key);
                        extendOnly.remove(key);
                    }
                });
                removals.forEach(key -> {
                    if (!unsavedPuts.containsKey(key)) {
                        unsavedRemovals.remove(key);
                    }
                });
                entries.clear();
                entries.putAll(written.entries());
                seen = written.stamp();
                applyUnsaved();
            }
        }
    }

    private void refreshIfChanged() {
        ExpiryFile.FileStamp now = disk.stat();
        if (!now.equals(seen)) {
            ExpiryFile.Reading reading = disk.read();
            seen = now;
            reading.problems().forEach(this::report);
            if (!reading.unreadable()) {
                entries.clear();
                entries.putAll(reading.entries());
            }
            applyUnsaved();
        }
    }

    private void applyUnsaved() {
        apply(entries, unsavedPuts, extendOnly, unsavedRemovals);
        forgetExpired();
    }

    /** Removals first, then puts; an extend-only put keeps the later of the two ends. */
    private static void apply(
            Map<String, Entry> target, Map<String, Entry> puts, Set<String> extending, Set<String> removals) {
        removals.forEach(target::remove);
        for (Entry e : puts.values()) {
            if (extending.contains(e.key())) {
                target.merge(e.key(), e, (had, wanted) -> had.until() >= wanted.until() ? had : wanted);
            } else {
                target.put(e.key(), e);
            }
        }
    }

    private void forgetExpired() {
        long now = clock.millis();
        entries.values().removeIf(entry -> !entry.activeAt(now));
        // An unsaved put that expires still replaced what the file holds for its key; an unsaved extend that expires
        // asked only for "at least until then", so it is dropped and leaves the file's (maybe longer) entry alone.
        for (Iterator<Entry> it = unsavedPuts.values().iterator(); it.hasNext(); ) {
            Entry entry = it.next();
            if (!entry.activeAt(now)) {
                if (!extendOnly.remove(entry.key())) {
                    unsavedRemovals.add(entry.key());
                }
                it.remove();
            }
        }
    }

    private void report(FileProblem problem) {
        if (problems.add(problem)) {
            LOG.warn("state: {}", problem.describe());
        }
    }
}
