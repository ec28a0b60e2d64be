package dev.rebound.history;

import dev.rebound.json.WireJson;
import dev.rebound.settings.ConfigDirectory;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions of a sessions directory, for the session list: list them newest activity first, find, rename (by
 * appending a {@code title} entry: the file stays append-only) and delete (to the trash). Listing reads each file's
 * first line and its end, not its messages. Files that are not {@code <session-id>.jsonl} are ignored. Thread-safe.
 *
 * <p>Close a session's {@link SessionJournal} before deleting it: on POSIX an open journal keeps appending to the file
 * in the trash.
 */
public final class SessionCatalogue {
    /** The longest title accepted by {@link #rename}, in characters. */
    public static final int MAX_TITLE_LENGTH = 200;

    private static final Logger LOG = LoggerFactory.getLogger(SessionCatalogue.class);
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Comparator<SessionSummary> NEWEST_FIRST =
            Comparator.comparingLong(SessionSummary::lastActivity).reversed().thenComparing(SessionSummary::id);

    private final Path sessionsDir;
    private final SessionTrash trash;
    private final Clock clock;
    private final JournalCodec codec;
    private final SummaryReader summaries;
    private final SecureRandom random = new SecureRandom();

    /**
     * A catalogue of a sessions directory.
     *
     * @param trash where {@link #delete} moves files
     * @param clock the time of {@code title} entries
     */
    public SessionCatalogue(Path sessionsDir, SessionTrash trash, Clock clock) {
        this(sessionsDir, trash, clock, new JournalCodec(new WireJson()));
    }

    /**
     * Like {@link #SessionCatalogue(Path, SessionTrash, Clock)}, reading and writing with {@code codec}: the app's
     * one codec, so that the chat list, search and export do not build their own JSON (de)serializers.
     */
    public SessionCatalogue(Path sessionsDir, SessionTrash trash, Clock clock, JournalCodec codec) {
        this.sessionsDir = Objects.requireNonNull(sessionsDir, "sessionsDir").toAbsolutePath();
        this.trash = Objects.requireNonNull(trash, "trash");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.summaries = new SummaryReader(codec);
    }

    /**
     * The catalogue of a config directory's {@code sessions/}, deleting to the platform's trash where there is one,
     * else to {@code trash/sessions/} in the config directory.
     */
    public static SessionCatalogue of(ConfigDirectory configDir, Clock clock, JournalCodec codec) {
        Path trashDir = configDir.root().resolve("trash").resolve("sessions");
        return new SessionCatalogue(configDir.sessionsDir(), SessionTrash.platformOr(trashDir), clock, codec);
    }

    /** The codec the catalogue reads and writes chat files with, for the other readers of those files. */
    public JournalCodec codec() {
        return codec;
    }

    /** The sessions directory. */
    public Path sessionsDir() {
        return sessionsDir;
    }

    /**
     * Every session, newest activity first. A damaged file is listed, with its {@link SessionSummary#problems()
     * problems}; a missing sessions directory means no sessions.
     *
     * @throws IOException when the directory exists but cannot be listed
     */
    public List<SessionSummary> list() throws IOException {
        List<SessionSummary> list = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(sessionsDir, "*" + SessionFiles.EXTENSION)) {
            for (Path file : files) {
                Optional<String> id = SessionFiles.idOf(file);
                if (id.isPresent() && Files.isRegularFile(file)) {
                    list.add(summaries.read(id.get(), file));
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        list.sort(NEWEST_FIRST);
        return list;
    }

    /** The file of a session, if there is one; empty for an id that is not a valid session id. */
    public Optional<Path> find(String id) {
        if (!SessionFiles.isValidId(id)) {
            return Optional.empty();
        }
        Path file = SessionFiles.fileOf(sessionsDir, id);
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    /**
     * Renames a session by appending a {@code title} entry (whitespace collapsed, at most
     * {@value #MAX_TITLE_LENGTH} characters).
     *
     * @return the entry appended
     * @throws NoSuchFileException when there is no such session
     * @throws IllegalArgumentException when the title is blank or too long
     */
    public TitleEntry rename(String id, String title) throws IOException {
        String clean = WHITESPACE
                .matcher(Objects.requireNonNull(title, "title"))
                .replaceAll(" ")
                .strip();
        if (clean.isEmpty()) {
            throw new IllegalArgumentException("a session title must not be blank");
        }
        if (clean.length() > MAX_TITLE_LENGTH) {
            throw new IllegalArgumentException(
                    "a session title must be at most " + MAX_TITLE_LENGTH + " characters, not " + clean.length());
        }
        Path file = find(id).orElseThrow(() -> new NoSuchFileException(String.valueOf(id), null, "no such session"));
        TitleEntry entry = new TitleEntry(newEntryId(), clock.millis(), clean);
        try (SessionJournal journal = SessionJournal.openForAppend(file, codec)) {
            journal.append(entry);
        }
        return entry;
    }

    /**
     * Moves a session's file to the trash, unless the chat is open (in another window or process, which would go on
     * writing to the file in the trash).
     *
     * @return false when there is no such session
     * @throws IOException when the chat is open elsewhere (saying so), or the file could not be moved
     */
    public boolean delete(String id) throws IOException {
        Optional<Path> file = find(id);
        if (file.isEmpty()) {
            return false;
        }
        Optional<Path> trashed;
        // Held while moving, so that no window or process opens the chat meanwhile.
        try (FileLockHandle held = FileLockHandle.acquire(file.get().toAbsolutePath())) {
            trashed = trash.moveToTrash(file.get());
        }
        LOG.info(
                "session {} deleted: moved to {}",
                id,
                trashed.map(Path::toString).orElse("the platform's trash"));
        return true;
    }

    private String newEntryId() {
        byte[] bytes = new byte[8];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
