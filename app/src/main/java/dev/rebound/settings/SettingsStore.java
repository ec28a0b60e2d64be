package dev.rebound.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.files.AtomicFiles;
import dev.rebound.files.FileBackups;
import dev.rebound.files.FileLocks;
import dev.rebound.files.FileProblem;
import dev.rebound.files.JsonFiles;
import dev.rebound.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * settings.json in memory: the typed {@link #current()} settings everyone reads, and the raw document (unknown keys
 * included) that edits are applied to and saved from. Loading never fails: bad content means defaults plus
 * {@link #problems()}, and a file Rebound could not read is left untouched until the user saves deliberately, when it
 * is first kept as {@code settings.json.bak-<timestamp>}. Thread-safe.
 */
public final class SettingsStore {
    private static final Logger LOG = LoggerFactory.getLogger(SettingsStore.class);
    private static final String STARTED_ON_DEFAULTS =
            "Rebound started on default settings and will not change that file until you save settings.";
    private static final ObjectNode DEFAULTS_JSON = SettingsJson.toJson(Settings.DEFAULTS);

    private final Path file;
    private final Clock clock;
    /** The provider in effect while the file configures none, or null. */
    private final ProviderConfig builtIn;

    private final ObjectMapper mapper = Json.newMapper();
    private final List<Consumer<Settings>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Path>> keptBrokenListeners = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    /** The document as last loaded or saved; guarded by {@link #lock}. */
    private ObjectNode document;
    /** The file on disk could not be read; guarded by {@link #lock}. */
    private boolean fileUnreadable;
    /** The version of the file last read or written; guarded by {@link #lock}. */
    private Stamp stamp = Stamp.ABSENT;

    private final List<Consumer<String>> externalChangeListeners = new CopyOnWriteArrayList<>();

    /** What tells one version of the file from another without reading it. */
    private record Stamp(Object modified, long size, Object fileKey) {
        static final Stamp ABSENT = new Stamp(null, -1, null);
    }

    private volatile State state;

    private record State(Settings settings, List<FileProblem> problems) {}

    private SettingsStore(Path file, Clock clock, ProviderConfig builtIn) {
        this.file = file;
        this.clock = clock;
        this.builtIn = builtIn;
    }

    /** Loads the settings file of a config directory; never throws for missing or bad content. */
    public static SettingsStore open(ConfigDirectory dir, Clock clock) {
        return open(dir, clock, null);
    }

    /**
     * Loads the settings file of a config directory, with a built-in provider that is in effect while the file
     * configures none (the offline simulator). The built-in provider is never written to the file and does not appear
     * in {@link #effectiveJson()}; once a provider is configured, it is gone from {@link #current()}.
     *
     * @param builtIn the built-in provider, or null for none
     */
    public static SettingsStore open(ConfigDirectory dir, Clock clock, ProviderConfig builtIn) {
        SettingsStore store = new SettingsStore(dir.settingsFile(), Objects.requireNonNull(clock, "clock"), builtIn);
        store.load();
        return store;
    }

    /** Whether {@link #current()} runs on the built-in provider because the file configures none. */
    public boolean usesBuiltInProvider() {
        return builtIn != null
                && state.settings().providers().size() == 1
                && state.settings().providers().get(builtIn.key()) == builtIn;
    }

    /**
     * The settings with the built-in provider added when the file is absent or is valid JSON with no {@code providers}
     * (missing, null or {@code {}}). A file that could not be read, or whose providers were all invalid, gets no
     * built-in provider: its problems must show, not be papered over with canned replies.
     */
    private Settings withBuiltIn(Settings settings, JsonNode fileDocument, boolean unreadable) {
        if (builtIn == null || unreadable || !configuresNoProviders(fileDocument)) {
            return settings;
        }
        return new Settings(
                settings.model(),
                settings.modelRoles(),
                Map.of(builtIn.key(), builtIn),
                settings.retry(),
                settings.timeouts(),
                settings.limits(),
                settings.systemPrompt());
    }

    private static boolean configuresNoProviders(JsonNode fileDocument) {
        JsonNode providers = fileDocument.get("providers");
        return providers == null || providers.isNull() || providers.isObject() && providers.isEmpty();
    }

    private void load() {
        List<FileProblem> problems = new ArrayList<>();
        JsonFiles.ObjectLoad read = JsonFiles.readObject(file, mapper, "{ ... }", STARTED_ON_DEFAULTS, true);
        read.problem().ifPresent(problems::add);
        ObjectNode loaded = read.root();
        boolean unreadable = read.unusable();
        SettingsValidator.Result result = SettingsValidator.validate(loaded);
        problems.addAll(result.problems());
        problems.forEach(p -> LOG.warn("settings: {}", p.describe()));
        synchronized (lock) {
            document = loaded;
            fileUnreadable = unreadable;
            state = new State(withBuiltIn(result.settings(), loaded, unreadable), List.copyOf(problems));
            stamp = stat();
        }
    }

    private Stamp stat() {
        try {
            java.nio.file.attribute.BasicFileAttributes attributes =
                    Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
            return new Stamp(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey());
        } catch (IOException e) {
            return Stamp.ABSENT;
        }
    }

    /**
     * Registers a listener told, for a person, when settings.json was changed outside this process in a way that
     * needs saying: it cannot be read any more (the settings in effect stay), or some of its values are wrong.
     */
    public void addExternalChangeListener(Consumer<String> listener) {
        externalChangeListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Reads settings.json again when it changed since it was last read or written here (another Rebound process, a
     * text editor): valid content becomes {@link #current()} and the listeners are told; content that cannot be read
     * leaves the settings in effect as they are (a later save keeps the file as {@code settings.json.bak-…}) and the
     * external-change listeners are told. Cheap when nothing changed: one stat.
     */
    public void reloadIfChanged() {
        synchronized (lock) {
            if (stat().equals(stamp)) {
                return;
            }
            Reread reread = reread();
            if (reread == Reread.UNREADABLE) {
                String message = "settings.json was changed outside Rebound and cannot be read any more ("
                        + state.problems().stream()
                                .findFirst()
                                .map(FileProblem::describe)
                                .orElse("see the log")
                        + "). Rebound keeps the settings it had; fix the file, or save in Rebound to replace it (the "
                        + "file is then kept as settings.json.bak-…).";
                externalChangeListeners.forEach(listener -> listener.accept(message));
                return;
            }
            notifyListeners(state.settings());
            List<FileProblem> errors =
                    state.problems().stream().filter(FileProblem::isError).toList();
            if (!errors.isEmpty()) {
                String message = "settings.json was changed outside Rebound; these values are wrong and their "
                        + "defaults apply: "
                        + errors.stream().map(FileProblem::describe).collect(java.util.stream.Collectors.joining("; "));
                externalChangeListeners.forEach(listener -> listener.accept(message));
            }
        }
    }

    private enum Reread {
        UNCHANGED,
        READ,
        UNREADABLE
    }

    /**
     * Under {@link #lock}: reads the file again when its stamp changed. Readable content replaces the document and the
     * state; unreadable content only marks the file unreadable, keeping the last good document and state (with the
     * problem added to the state's problems).
     */
    private Reread reread() {
        Stamp now = stat();
        if (now.equals(stamp)) {
            return Reread.UNCHANGED;
        }
        stamp = now;
        JsonFiles.ObjectLoad read = JsonFiles.readObject(file, mapper, "{ ... }", STARTED_ON_DEFAULTS, true);
        if (read.unusable() && Files.exists(file)) {
            fileUnreadable = true;
            List<FileProblem> problems = new ArrayList<>();
            read.problem().ifPresent(problems::add);
            problems.addAll(state.problems());
            state = new State(state.settings(), problems);
            read.problem().ifPresent(p -> LOG.warn("settings: {}", p.describe()));
            return Reread.UNREADABLE;
        }
        ObjectNode loaded = read.root();
        SettingsValidator.Result result = SettingsValidator.validate(loaded);
        result.problems().forEach(p -> LOG.warn("settings: {}", p.describe()));
        document = loaded;
        fileUnreadable = false;
        state = new State(withBuiltIn(result.settings(), loaded, false), result.problems());
        return Reread.READ;
    }

    /** The file this store reads and writes. */
    public Path file() {
        return file;
    }

    /** The settings in effect; a cheap read, meant to be called at every decision. */
    public Settings current() {
        return state.settings();
    }

    /** The problems of the settings in effect: those found at load, or, after a saved edit, its warnings. */
    public List<FileProblem> problems() {
        return state.problems();
    }

    /**
     * The settings document with every default filled in: the file's values where it has them (unknown keys and values
     * {@link #problems()} reports as invalid included), defaults elsewhere. Never holds an API key. A fresh copy.
     */
    public ObjectNode effectiveJson() {
        ObjectNode result;
        synchronized (lock) {
            result = document.deepCopy();
        }
        fillDefaults(result, DEFAULTS_JSON);
        removeApiKeys(result);
        return result;
    }

    /**
     * Applies a JSON merge patch (RFC 7386) to the settings document. A valid result is saved atomically and becomes
     * {@link #current()}, then the listeners are told. An invalid one is refused whole: nothing changes in memory or on
     * disk. Warnings (a model that is not configured) do not refuse an edit. A patch may not add API keys.
     *
     * <p>When the file on disk could not be read, this deliberate save first keeps it as
     * {@code settings.json.bak-<timestamp>}, then writes the patch applied to an empty document.
     */
    public SettingsUpdate update(JsonNode mergePatch) {
        Objects.requireNonNull(mergePatch, "mergePatch");
        synchronized (lock) {
            try {
                // Another process (or an editor) may have saved since this one read the file: reread under the lock
                // that every Rebound process saves under, and apply the edit to what the file holds now.
                return FileLocks.underLock(file, () -> {
                    reread();
                    return applyLocked(mergePatch);
                });
            } catch (IOException e) {
                LOG.warn("could not lock {}", file, e);
                return new SettingsUpdate.Rejected(List.of(FileProblem.error("", WriteFailures.explain(file, e))));
            }
        }
    }

    /** Under {@link #lock} and the file's lock: applies the patch to the document as the file holds it. */
    private SettingsUpdate applyLocked(JsonNode mergePatch) {
        {
            ObjectNode base = document;
            JsonNode patched = JsonMergePatch.apply(base, mergePatch);
            if (!patched.isObject()) {
                return new SettingsUpdate.Rejected(List.of(FileProblem.error(
                        "", "a settings edit must be a JSON object (a merge patch); it would replace all settings")));
            }
            List<FileProblem> reasons = new ArrayList<>();
            for (String path : SettingsValidator.apiKeyPaths(mergePatch)) {
                reasons.add(FileProblem.error(
                        path, "API keys are not stored in settings.json; add them to credentials.json"));
            }
            SettingsValidator.Result result = SettingsValidator.validate(patched);
            reasons.addAll(result.errors());
            if (!reasons.isEmpty()) {
                return new SettingsUpdate.Rejected(reasons);
            }
            Path keptBroken;
            try {
                keptBroken = save((ObjectNode) patched);
            } catch (IOException e) {
                LOG.warn("could not save {}", file, e);
                return new SettingsUpdate.Rejected(List.of(FileProblem.error("", WriteFailures.explain(file, e))));
            }
            document = (ObjectNode) patched;
            fileUnreadable = false;
            stamp = stat();
            Settings applied = withBuiltIn(result.settings(), patched, false);
            state = new State(applied, result.problems());
            notifyListeners(applied);
            if (keptBroken != null) {
                keptBrokenListeners.forEach(listener -> listener.accept(keptBroken));
            }
            return new SettingsUpdate.Applied(applied, keptBroken);
        }
    }

    /** Saves the document; returns where the file Rebound could not read was kept, or null when there was none. */
    private Path save(ObjectNode newDocument) throws IOException {
        Path copy = null;
        if (fileUnreadable && Files.exists(file)) {
            copy = FileBackups.keepCopy(file, clock, null);
            LOG.warn("kept the settings file Rebound could not read as {}", copy);
        }
        // Under the lock every settings save takes: a temporary copy found now was left by a killed save. It holds
        // the settings (secret header values included), so it must not stay forever.
        int left = AtomicFiles.removeLeftTemporaries(file);
        if (left > 0) {
            LOG.info("removed {} temporary copies of {} left by an interrupted save", left, file.getFileName());
        }
        AtomicFiles.writeAtomically(file, JsonFiles.prettyBytes(mapper, newDocument), null);
        return copy;
    }

    /**
     * Registers a listener told where the settings file Rebound could not read was kept, after an edit saved a new
     * file in its place: the user must hear of it (canned simulator replies must never hide a lost configuration).
     */
    public void addKeptBrokenListener(Consumer<Path> listener) {
        keptBrokenListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * The newest copy of a settings file Rebound could not read ({@code settings.json.bak-…}) next to the settings
     * file, if there is one.
     */
    public java.util.Optional<Path> keptBrokenCopy() {
        Path dir = file.toAbsolutePath().getParent();
        String prefix = file.getFileName() + ".bak-";
        try (java.util.stream.Stream<Path> siblings = Files.list(dir)) {
            return siblings.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .max(java.util.Comparator.comparing(p -> p.getFileName().toString()));
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    /**
     * Registers a listener called with the new settings after every applied edit, on the editing thread, in edit
     * order, while edits are held off: keep it short and do not edit settings from another thread inside it.
     */
    public void addListener(Consumer<Settings> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Removes a listener added with {@link #addListener}. */
    public void removeListener(Consumer<Settings> listener) {
        listeners.remove(listener);
    }

    private void notifyListeners(Settings settings) {
        for (Consumer<Settings> listener : listeners) {
            try {
                listener.accept(settings);
            } catch (RuntimeException e) {
                LOG.warn("a settings listener failed", e);
            }
        }
    }

    private static void fillDefaults(ObjectNode target, ObjectNode defaults) {
        for (Map.Entry<String, JsonNode> member : defaults.properties()) {
            JsonNode existing = target.get(member.getKey());
            if (existing == null || existing.isNull()) {
                target.set(member.getKey(), member.getValue().deepCopy());
            } else if (existing.isObject() && member.getValue().isObject()) {
                fillDefaults((ObjectNode) existing, (ObjectNode) member.getValue());
            }
        }
    }

    private static void removeApiKeys(JsonNode node) {
        if (node.isObject()) {
            ((ObjectNode) node).remove(SettingsValidator.API_KEY);
        }
        node.forEach(SettingsStore::removeApiKeys);
    }
}
