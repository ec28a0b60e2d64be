package dev.rebound.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.files.AtomicFiles;
import dev.rebound.files.FileBackups;
import dev.rebound.files.FileProblem;
import dev.rebound.files.JsonFiles;
import dev.rebound.files.KeyPath;
import dev.rebound.json.Json;
import dev.rebound.settings.ConfigDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * credentials.json: the API keys of each provider, each under a label unique for its provider, either written in the
 * file ({@code apiKey}) or named by an environment variable ({@code apiKeyEnv}). Loading never fails: bad entries are
 * skipped and reported in {@link #problems()}, and a file Rebound could not read is left untouched until credentials
 * are saved, when it is first kept as {@code credentials.json.bak-<timestamp>} (owner-only). No key ever appears in a
 * problem, an exception, a log line or a {@code toString()}.
 *
 * <p>The file is written owner-only ({@code 0600}) where the file system has POSIX permissions. A file found with wider
 * permissions is tightened to {@code 0600} at load, with a warning saying so: leaving keys readable by other users is
 * worse than changing a mode the user set. Thread-safe.
 */
public final class CredentialStore {
    /** The longest label accepted. */
    static final int MAX_LABEL = 64;

    private static final Logger LOG = LoggerFactory.getLogger(CredentialStore.class);
    private static final String FILE_NAME = "credentials.json";
    private static final String NOT_CHANGED =
            "No credentials were loaded from it, and Rebound will not change it until you save credentials.";

    private final Path file;
    private final Map<String, String> env;
    private final Clock clock;
    private final ObjectMapper mapper = Json.newMapper();
    private final Object lock = new Object();
    /** The document as last loaded or saved; guarded by {@link #lock}. */
    private ObjectNode document;
    /** The file on disk could not be read; guarded by {@link #lock}. */
    private boolean fileUnreadable;

    private volatile State state;

    /** Labels of well-formed entries, the credentials whose key resolved, and the problems found. */
    private record State(
            Map<String, List<String>> labels, Map<String, List<Credential>> credentials, List<FileProblem> problems) {}

    private CredentialStore(Path file, Map<String, String> env, Clock clock) {
        this.file = file;
        this.env = Map.copyOf(env);
        this.clock = clock;
    }

    /** Loads the credentials file of a config directory, resolving {@code apiKeyEnv} from this process's environment. */
    public static CredentialStore open(ConfigDirectory dir, Clock clock) {
        return open(dir, System.getenv(), clock);
    }

    /** Loads the credentials file of a config directory, resolving {@code apiKeyEnv} from the given environment. */
    public static CredentialStore open(ConfigDirectory dir, Map<String, String> env, Clock clock) {
        CredentialStore store = new CredentialStore(
                dir.credentialsFile(), Objects.requireNonNull(env, "env"), Objects.requireNonNull(clock, "clock"));
        store.load();
        return store;
    }

    private void load() {
        List<FileProblem> fileProblems = new ArrayList<>();
        tightenPermissions().ifPresent(fileProblems::add);
        // The parser's own description is never shown: it may quote the file, keys included.
        JsonFiles.ObjectLoad read = JsonFiles.readObject(file, mapper, "{ \"provider\": [ ... ] }", NOT_CHANGED, false);
        read.problem().ifPresent(fileProblems::add);
        ObjectNode loaded = read.root();
        boolean unreadable = read.unusable();
        synchronized (lock) {
            document = loaded;
            fileUnreadable = unreadable;
            state = interpret(loaded, fileProblems);
        }
        state.problems().forEach(p -> LOG.warn("credentials: {}", p.describe()));
    }

    private Optional<FileProblem> tightenPermissions() {
        if (!Files.isRegularFile(file)
                || !file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return Optional.empty();
        }
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (AtomicFiles.OWNER_ONLY.containsAll(perms)) {
                return Optional.empty();
            }
            Files.setPosixFilePermissions(file, AtomicFiles.OWNER_ONLY);
            return Optional.of(FileProblem.warning(
                    "",
                    file + " had permissions "
                            + PosixFilePermissions.toString(perms)
                            + ", so other users could read its API keys; Rebound "
                            + "changed them to rw------- (owner only)."));
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.of(FileProblem.warning(
                    "",
                    file + " may be readable by other users and " + "Rebound could not restrict it (" + e
                            + "); run chmod 600 on it."));
        }
    }

    private State interpret(ObjectNode doc, List<FileProblem> fileProblems) {
        List<FileProblem> problems = new ArrayList<>(fileProblems);
        Map<String, List<String>> labels = new LinkedHashMap<>();
        Map<String, List<Credential>> credentials = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> member : doc.properties()) {
            String provider = member.getKey();
            String providerPath = KeyPath.child("", provider);
            if (!member.getValue().isArray()) {
                problems.add(
                        error(providerPath, "must be an array of credentials ([{\"label\": ..., \"apiKey\": ...}])"));
                continue;
            }
            List<String> providerLabels = new ArrayList<>();
            List<Credential> providerCredentials = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            JsonNode entries = member.getValue();
            for (int i = 0; i < entries.size(); i++) {
                String entryPath = KeyPath.index(providerPath, i);
                ApiKeySource source = entry(entries.get(i), entryPath, seen, problems);
                if (source == null) {
                    continue;
                }
                String label = entries.get(i).get("label").textValue();
                providerLabels.add(label);
                Secret secret = resolve(source, label, entryPath, problems);
                if (secret != null) {
                    providerCredentials.add(new Credential(provider, label, secret));
                }
            }
            labels.put(provider, List.copyOf(providerLabels));
            credentials.put(provider, List.copyOf(providerCredentials));
        }
        return new State(Map.copyOf(labels), Map.copyOf(credentials), List.copyOf(problems));
    }

    /** The key source of a well-formed entry, or null (then reported) when the entry is unusable. */
    private static ApiKeySource entry(JsonNode entry, String path, Set<String> seenLabels, List<FileProblem> problems) {
        if (!entry.isObject()) {
            problems.add(error(path, "must be an object with a label and apiKey or apiKeyEnv"));
            return null;
        }
        JsonNode label = entry.get("label");
        String labelPath = KeyPath.child(path, "label");
        if (label == null || !label.isTextual() || label.textValue().isBlank()) {
            problems.add(error(labelPath, "is required: a non-empty name for this key, unique for the provider"));
            return null;
        }
        String text = label.textValue();
        if (text.length() > MAX_LABEL
                || text.codePoints().anyMatch(Character::isISOControl)
                || !text.strip().equals(text)) {
            // Labels travel in events, state files and the UI; a key pasted here by mistake must not be echoed.
            problems.add(error(
                    labelPath,
                    "must be at most " + MAX_LABEL + " characters, on one line, without "
                            + "surrounding spaces, so this entry is ignored"));
            return null;
        }
        if (!seenLabels.add(label.textValue())) {
            problems.add(error(
                    labelPath,
                    "duplicate label '" + label.textValue()
                            + "'; labels must be unique per provider, so this entry is ignored"));
            return null;
        }
        JsonNode key = entry.get("apiKey");
        JsonNode keyEnv = entry.get("apiKeyEnv");
        boolean hasKey = key != null && !key.isNull();
        boolean hasKeyEnv = keyEnv != null && !keyEnv.isNull();
        if (hasKey == hasKeyEnv) {
            problems.add(error(
                    path,
                    hasKey
                            ? "has both apiKey and apiKeyEnv; keep one"
                            : "needs apiKey (the key) or apiKeyEnv (the environment variable holding it)"));
            return null;
        }
        if (hasKey) {
            if (!key.isTextual() || key.textValue().isEmpty()) {
                problems.add(error(KeyPath.child(path, "apiKey"), "must be a non-empty string"));
                return null;
            }
            return new ApiKeySource.Literal(new Secret(key.textValue()));
        }
        if (!keyEnv.isTextual() || !ApiKeySource.Environment.isVariableName(keyEnv.textValue())) {
            problems.add(error(
                    KeyPath.child(path, "apiKeyEnv"),
                    "must be the name of an environment variable "
                            + "(letters, digits and _), not the key itself; use apiKey for a key"));
            return null;
        }
        return new ApiKeySource.Environment(keyEnv.textValue());
    }

    private Secret resolve(ApiKeySource source, String label, String entryPath, List<FileProblem> problems) {
        return switch (source) {
            case ApiKeySource.Literal literal -> literal.key();
            case ApiKeySource.Environment environment -> {
                String value = env.get(environment.variable());
                if (value == null || value.isEmpty()) {
                    problems.add(FileProblem.warning(
                            FILE_NAME + ": " + KeyPath.child(entryPath, "apiKeyEnv"),
                            "environment variable " + environment.variable() + " is not set or empty, so credential '"
                                    + label + "' is skipped"));
                    yield null;
                }
                yield new Secret(value);
            }
        };
    }

    private static FileProblem error(String path, String message) {
        return FileProblem.error(FILE_NAME + ": " + path, message);
    }

    /** The file this store reads and writes. */
    public Path file() {
        return file;
    }

    /** The usable credentials of a provider, in file order: well-formed entries whose key resolved. */
    public List<Credential> forProvider(String provider) {
        return state.credentials().getOrDefault(provider, List.of());
    }

    /** Every usable credential, of every provider. */
    public List<Credential> all() {
        return state.credentials().values().stream().flatMap(List::stream).toList();
    }

    /** The labels of a provider's well-formed entries in file order, including those whose variable is not set. */
    public List<String> labels(String provider) {
        return state.labels().getOrDefault(provider, List.of());
    }

    /** The environment variable a credential's key is read from ({@code apiKeyEnv}), when its entry names one. */
    public java.util.Optional<String> variableOf(String provider, String label) {
        synchronized (lock) {
            JsonNode entries = fileUnreadable || document == null ? null : document.get(provider);
            if (entries != null && entries.isArray()) {
                for (JsonNode entry : entries) {
                    if (entry.isObject()
                            && Objects.equals(label, entry.path("label").textValue())
                            && entry.path("apiKeyEnv").isTextual()) {
                        return java.util.Optional.of(entry.get("apiKeyEnv").textValue());
                    }
                }
            }
            return java.util.Optional.empty();
        }
    }

    /** What was wrong with the file at load, or after the last save. */
    public List<FileProblem> problems() {
        return state.problems();
    }

    /**
     * Adds a credential, or changes the key of the one with that label (keeping its place and any other members), and
     * saves the file atomically, owner-only.
     *
     * @throws IllegalStateException when the provider's entry in the file is not an array (fix the file first)
     * @throws IOException when the file could not be saved; nothing changed then
     */
    public void put(String provider, String label, ApiKeySource source) throws IOException {
        requireName(provider, "provider");
        requireName(label, "label");
        Objects.requireNonNull(source, "source");
        synchronized (lock) {
            ObjectNode updated = editableCopy();
            ArrayNode entries = entriesOf(updated, provider, true);
            ObjectNode entry = null;
            for (JsonNode candidate : entries) {
                if (candidate.isObject() && label.equals(candidate.path("label").textValue())) {
                    entry = (ObjectNode) candidate;
                    break;
                }
            }
            if (entry == null) {
                entry = entries.addObject().put("label", label);
            }
            entry.remove(List.of("apiKey", "apiKeyEnv"));
            switch (source) {
                case ApiKeySource.Literal literal ->
                    entry.put("apiKey", literal.key().reveal());
                case ApiKeySource.Environment environment -> entry.put("apiKeyEnv", environment.variable());
            }
            save(updated);
        }
    }

    /**
     * Removes the credential of that label and saves the file.
     *
     * @return whether there was one
     * @throws IllegalStateException when the provider's entry in the file is not an array (fix the file first)
     * @throws IOException when the file could not be saved; nothing changed then
     */
    public boolean remove(String provider, String label) throws IOException {
        synchronized (lock) {
            ObjectNode updated = editableCopy();
            ArrayNode entries = entriesOf(updated, provider, false);
            if (entries == null) {
                return false;
            }
            boolean removed = false;
            for (int i = entries.size() - 1; i >= 0; i--) {
                if (entries.get(i).isObject()
                        && Objects.equals(label, entries.get(i).path("label").textValue())) {
                    entries.remove(i);
                    removed = true;
                }
            }
            if (!removed) {
                return false;
            }
            if (entries.isEmpty()) {
                updated.remove(provider);
            }
            save(updated);
            return true;
        }
    }

    private ObjectNode editableCopy() {
        return fileUnreadable ? mapper.createObjectNode() : document.deepCopy();
    }

    private static ArrayNode entriesOf(ObjectNode doc, String provider, boolean create) {
        JsonNode entries = doc.get(provider);
        if (entries == null || entries.isNull()) {
            return create ? doc.putArray(provider) : null;
        }
        if (!entries.isArray()) {
            throw new IllegalStateException(FILE_NAME + ": " + KeyPath.child("", provider)
                    + " is not an array of credentials; fix the file first");
        }
        return (ArrayNode) entries;
    }

    private void save(ObjectNode updated) throws IOException {
        if (fileUnreadable && Files.exists(file)) {
            Path copy = FileBackups.keepCopy(file, clock, AtomicFiles.OWNER_ONLY);
            LOG.info("kept the credentials file Rebound could not read as {}", copy);
        }
        AtomicFiles.writeAtomically(file, JsonFiles.prettyBytes(mapper, updated), AtomicFiles.OWNER_ONLY);
        document = updated;
        fileUnreadable = false;
        state = interpret(updated, List.of());
    }

    private static void requireName(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("a credential's " + what + " must not be empty");
        }
    }
}
