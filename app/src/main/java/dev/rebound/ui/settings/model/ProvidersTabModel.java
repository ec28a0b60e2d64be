package dev.rebound.ui.settings.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.auth.ApiKeySource;
import dev.rebound.auth.Credential;
import dev.rebound.auth.CredentialStore;
import dev.rebound.auth.Secret;
import dev.rebound.files.FileProblem;
import dev.rebound.settings.ConfigValue;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.SettingsSecrets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Providers and credentials tab. Providers are edited in place and written to settings.json; credentials are
 * added or removed here and written to credentials.json on Save, never to settings.json. Keys are only ever shown
 * masked.
 */
public final class ProvidersTabModel {
    private static final Logger LOG = LoggerFactory.getLogger(ProvidersTabModel.class);
    private static final int MAX_LABEL = 64;

    private final JsonNode originalJson;
    private final ObservableList<ProviderRow> providers = FXCollections.observableArrayList();
    private final ObservableList<CredentialRow> credentials = FXCollections.observableArrayList();
    private final StringProperty credentialProvider = new SimpleStringProperty(this, "credentialProvider", "");
    private final StringProperty credentialLabel = new SimpleStringProperty(this, "credentialLabel", "");
    private final BooleanProperty credentialFromEnv = new SimpleBooleanProperty(this, "credentialFromEnv", false);
    private final StringProperty credentialValue = new SimpleStringProperty(this, "credentialValue", "");
    private final ReadOnlyStringWrapper credentialError = new ReadOnlyStringWrapper(this, "credentialError", "");
    private final ConnectionTester tester;
    private final Executor fx;
    private final Executor background;
    private final Runnable changed;

    ProvidersTabModel(
            Map<String, ProviderConfig> configured,
            JsonNode providersJson,
            CredentialStore store,
            ConnectionTester tester,
            Executor fx,
            Executor background,
            Runnable changed) {
        this.originalJson = providersJson.deepCopy();
        this.tester = tester;
        this.fx = fx;
        this.background = background;
        this.changed = changed;
        configured.values().forEach(p -> {
            // Secrets are shown masked, as RPC shows them; a mask left unchanged keeps the stored secret on save.
            ObjectNode entry = originalJson.path(p.key()).isObject()
                    ? ((ObjectNode) originalJson.get(p.key())).deepCopy()
                    : JsonNodeFactory.instance.objectNode();
            SettingsSecrets.maskProvider(entry);
            addRow(new ProviderRow(
                    p.key(),
                    p.api(),
                    p.baseUrl() == null ? "" : entry.path("baseUrl").asText(p.baseUrl()),
                    String.join(", ", p.models().stream().map(m -> m.id()).toList()),
                    ExtrasText.HEADERS.format(entry.get("headers")),
                    ExtrasText.QUERY.format(entry.get("query")),
                    p.store()));
        });
        configured.keySet().stream().findFirst().ifPresent(credentialProvider::set);
        for (String provider : configured.keySet()) {
            List<Credential> usable = store.forProvider(provider);
            for (String label : store.labels(provider)) {
                String display = usable.stream()
                        .filter(c -> c.label().equals(label))
                        .findFirst()
                        .map(c -> c.secret().masked())
                        .orElseGet(() -> store.variableOf(provider, label)
                                .map(v -> "(environment variable " + v + " is not set)")
                                .orElse("(key not available)"));
                credentials.add(new CredentialRow(provider, label, display, null));
            }
        }
    }

    private void addRow(ProviderRow row) {
        row.key().textProperty().addListener((o, a, b) -> changed.run());
        row.apiProperty().addListener((o, a, b) -> changed.run());
        row.baseUrl().textProperty().addListener((o, a, b) -> changed.run());
        row.models().textProperty().addListener((o, a, b) -> changed.run());
        row.headers().textProperty().addListener((o, a, b) -> changed.run());
        row.query().textProperty().addListener((o, a, b) -> changed.run());
        row.storeProperty().addListener((o, a, b) -> changed.run());
        providers.add(row);
    }

    public ObservableList<ProviderRow> providers() {
        return FXCollections.unmodifiableObservableList(providers);
    }

    /** Adds an empty provider speaking OpenAI Chat Completions; returns it. */
    public ProviderRow addProvider() {
        ProviderRow row = new ProviderRow(null, ProviderApi.OPENAI_COMPLETIONS, "", List.of());
        addRow(row);
        changed.run();
        return row;
    }

    /**
     * Adds a provider of a known kind, filled in as its documentation says (a key already taken gets a number); returns
     * it.
     */
    public ProviderRow addProvider(ProviderPreset preset) {
        String key = preset.key();
        if (!key.isEmpty()) {
            Set<String> taken = new HashSet<>();
            providers.forEach(p -> taken.add(p.key().text().strip()));
            String base = key;
            for (int n = 2; taken.contains(key); n++) {
                key = base + n;
            }
        }
        ProviderRow row = new ProviderRow(
                null, preset.api(), preset.baseUrl(), preset.models(), preset.headers(), preset.query(), true);
        row.key().textProperty().set(key);
        addRow(row);
        changed.run();
        return row;
    }

    /** Removes a provider; its saved credentials are kept (they are removed one by one). */
    public void removeProvider(ProviderRow row) {
        if (providers.remove(row)) {
            changed.run();
        }
    }

    public ObservableList<CredentialRow> credentials() {
        return FXCollections.unmodifiableObservableList(credentials);
    }

    public StringProperty credentialProviderProperty() {
        return credentialProvider;
    }

    public StringProperty credentialLabelProperty() {
        return credentialLabel;
    }

    /** Whether the new credential names an environment variable instead of holding the key. */
    public BooleanProperty credentialFromEnvProperty() {
        return credentialFromEnv;
    }

    /** The key, or the variable's name; cleared once the credential is added. */
    public StringProperty credentialValueProperty() {
        return credentialValue;
    }

    /** Why the new credential cannot be added, for a person; empty when it was. */
    public ReadOnlyStringProperty credentialErrorProperty() {
        return credentialError.getReadOnlyProperty();
    }

    /** Adds the credential typed in the form (saved on Save); returns whether it was accepted. */
    public boolean addCredential() {
        String provider =
                credentialProvider.get() == null ? "" : credentialProvider.get().strip();
        String label = credentialLabel.get() == null ? "" : credentialLabel.get();
        String value =
                credentialValue.get() == null ? "" : credentialValue.get().strip();
        String reason = credentialProblem(provider, label, value);
        credentialError.set(reason);
        if (!reason.isEmpty()) {
            return false;
        }
        ApiKeySource source = credentialFromEnv.get()
                ? new ApiKeySource.Environment(value)
                : new ApiKeySource.Literal(new Secret(value));
        String display = credentialFromEnv.get() ? "from $" + value : KeyMask.mask(value);
        credentials.add(new CredentialRow(provider, label, display, source));
        credentialLabel.set("");
        credentialValue.set("");
        changed.run();
        return true;
    }

    private String credentialProblem(String provider, String label, String value) {
        if (providers.stream().noneMatch(p -> p.key().text().strip().equals(provider))) {
            return "Choose the provider this key is for.";
        }
        if (label.isBlank()
                || label.length() > MAX_LABEL
                || !label.strip().equals(label)
                || label.codePoints().anyMatch(Character::isISOControl)) {
            return "The label must be 1 to " + MAX_LABEL + " characters on one line, without surrounding spaces.";
        }
        if (credentials.stream()
                .anyMatch(c -> c.provider().equals(provider)
                        && c.label().equals(label)
                        && !c.removedProperty().get())) {
            return provider + " already has a key labelled '" + label + "'; choose another label or remove it first.";
        }
        if (credentialFromEnv.get()) {
            return ApiKeySource.Environment.isVariableName(value)
                    ? ""
                    : "Type the name of an environment variable (letters, digits and _), not the key itself.";
        }
        return value.isEmpty() ? "Paste the API key." : "";
    }

    /** Removes a credential: one added here at once, a saved one on Save. */
    public void removeCredential(CredentialRow row) {
        if (row.isNew()) {
            credentials.remove(row);
        } else {
            row.markRemoved();
        }
        changed.run();
    }

    /**
     * Tries the provider as typed, off the FX thread, with the newest key added here for it, else its saved
     * credentials; the outcome lands in {@link ProviderRow#testResultProperty()}.
     */
    public void testConnection(ProviderRow row) {
        if (row.testingProperty().get()) {
            return;
        }
        String provider = row.key().text().strip();
        String typedKey = credentials.stream()
                .filter(c -> c.provider().equals(provider) && c.pending() instanceof ApiKeySource.Literal)
                .reduce((a, b) -> b)
                .map(c -> ((ApiKeySource.Literal) c.pending()).key().reveal())
                .orElse(null);
        String api =
                row.apiProperty().get() == null ? "" : row.apiProperty().get().toString();
        String baseUrl = row.baseUrl().text().strip();
        List<String> modelIds = row.modelIds();
        ExtrasText.Parsed headers = ExtrasText.HEADERS.parse(row.headers().text());
        ExtrasText.Parsed query = ExtrasText.QUERY.parse(row.query().text());
        if (!headers.error().isEmpty() || !query.error().isEmpty()) {
            row.testFinished(new ConnectionTester.Result(
                    false,
                    "Fix the extra headers or query parameters first (" + headers.error() + query.error() + ")."));
            return;
        }
        JsonNode stored = row.originalKey() == null ? null : originalJson.get(row.originalKey());
        row.testStarted();
        background.execute(() -> {
            ConnectionTester.Result result;
            try {
                result = tester.test(new ConnectionTester.Target(
                        provider,
                        api,
                        baseUrl,
                        typedKey,
                        modelIds,
                        unmasked(headers.values(), stored, "headers"),
                        unmasked(query.values(), stored, "query")));
            } catch (RuntimeException e) {
                // Only the class: a message may quote a header value, a secret.
                LOG.warn(
                        "Test connection of {} failed ({})",
                        provider,
                        e.getClass().getName());
                result = new ConnectionTester.Result(
                        false,
                        "The test could not run because of an unexpected "
                                + "problem. Check the provider's settings and try again; the log has the details.");
            }
            ConnectionTester.Result outcome = result;
            fx.execute(() -> row.testFinished(outcome));
        });
    }

    /** Writes the providers into a merge patch when any changed: removed ones as null, the others whole. */
    void patchInto(ObjectNode patch) {
        ObjectNode wanted = JsonNodeFactory.instance.objectNode();
        for (ProviderRow row : providers) {
            String key = row.key().text().strip();
            JsonNode original = row.originalKey() == null ? null : originalJson.get(row.originalKey());
            ObjectNode entry = original != null && original.isObject()
                    ? ((ObjectNode) original).deepCopy()
                    : JsonNodeFactory.instance.objectNode();
            entry.put(
                    "api",
                    row.apiProperty().get() == null
                            ? ""
                            : row.apiProperty().get().toString());
            String url = row.baseUrl().text().strip();
            if (url.isEmpty()) {
                entry.remove("baseUrl");
            } else {
                entry.put("baseUrl", url);
            }
            entry.set("models", models(row, original));
            extras(entry, "headers", ExtrasText.HEADERS.parse(row.headers().text()));
            extras(entry, "query", ExtrasText.QUERY.parse(row.query().text()));
            boolean responses = row.apiProperty().get() == ProviderApi.OPENAI_RESPONSES
                    || (row.apiProperty().get() == ProviderApi.SIMULATOR
                            && ProviderApi.OPENAI_RESPONSES
                                    .toString()
                                    .equals(entry.path("format").asText()));
            if (responses && !row.storeProperty().get()) {
                entry.put("store", false);
            } else {
                entry.remove("store");
            }
            SettingsSecrets.restoreProvider(entry, original);
            wanted.set(key, entry);
        }
        if (wanted.equals(originalJson)) {
            return;
        }
        ObjectNode out = patch.putObject("providers");
        originalJson.properties().forEach(member -> {
            if (!wanted.has(member.getKey())) {
                out.putNull(member.getKey());
            }
        });
        // A merge patch keeps what it does not mention: whatever a kept provider no longer has (a removed header, the
        // store flag, a cleared base URL) is written as null, so that it is removed from the file.
        wanted.properties()
                .forEach(member ->
                        out.set(member.getKey(), withRemovals(originalJson.get(member.getKey()), member.getValue())));
    }

    /** {@code wanted} with a null for every member {@code before} had and {@code wanted} lacks, at every depth. */
    private static JsonNode withRemovals(JsonNode before, JsonNode wanted) {
        if (before == null || !before.isObject() || !wanted.isObject()) {
            return wanted;
        }
        ObjectNode out = ((ObjectNode) wanted).deepCopy();
        before.properties().forEach(member -> {
            JsonNode now = out.get(member.getKey());
            if (now == null) {
                out.putNull(member.getKey());
            } else {
                out.set(member.getKey(), withRemovals(member.getValue(), now));
            }
        });
        return out;
    }

    /** Typed values with each secret shown masked and left unchanged put back to the stored secret. */
    private static Map<String, ConfigValue> unmasked(
            Map<String, ConfigValue> typed, JsonNode storedProvider, String member) {
        JsonNode stored = storedProvider == null ? null : storedProvider.get(member);
        if (stored == null || !stored.isObject()) {
            return typed;
        }
        Map<String, ConfigValue> out = new java.util.LinkedHashMap<>();
        typed.forEach((name, value) -> {
            JsonNode before = stored.get(name);
            boolean keptMask = value.literal() != null
                    && before != null
                    && before.isTextual()
                    && value.literal().equals(SettingsSecrets.mask(before.textValue()));
            out.put(name, keptMask ? ConfigValue.of(before.textValue()) : value);
        });
        return out;
    }

    /** Sets a provider's headers or query member as typed; a text that cannot be read leaves it as it was. */
    private static void extras(ObjectNode entry, String member, ExtrasText.Parsed parsed) {
        if (!parsed.error().isEmpty()) {
            return;
        }
        if (parsed.values().isEmpty()) {
            entry.remove(member);
        } else {
            entry.set(member, ExtrasText.toJson(parsed.values()));
        }
    }

    /** The typed model ids, each keeping the members it had (its context window...). */
    private static ArrayNode models(ProviderRow row, JsonNode original) {
        ArrayNode models = JsonNodeFactory.instance.arrayNode();
        JsonNode before = original == null ? null : original.get("models");
        for (String id : row.modelIds()) {
            ObjectNode model = JsonNodeFactory.instance.objectNode().put("id", id);
            if (before != null && before.isArray()) {
                for (JsonNode m : before) {
                    if (m.isObject() && id.equals(m.path("id").textValue())) {
                        model = ((ObjectNode) m).deepCopy();
                    }
                }
            }
            models.add(model);
        }
        return models;
    }

    void show(Problems problems) {
        Set<String> seen = new HashSet<>();
        for (ProviderRow row : providers) {
            String key = row.key().text().strip();
            String path = row.keyPath();
            String keyError = key.isEmpty()
                    ? "enter a key, like openai"
                    : !seen.add(key)
                            ? "another provider has the key '" + key + "'"
                            : problems.errorAt(path).orElse("");
            row.key().setError(keyError);
            row.baseUrl()
                    .setError(problems.errorAt(path + ".baseUrl")
                            .or(() -> problems.errorAt(path + ".api"))
                            .orElse(""));
            row.models()
                    .setError(problems.under(path + ".models").stream()
                            .filter(FileProblem::isError)
                            .map(p -> p.keyPath().substring(path.length() + 1) + " " + p.message())
                            .distinct()
                            .collect(Collectors.joining("; ")));
            row.headers().setError(extrasError(row.headers(), ExtrasText.HEADERS, problems, path + ".headers"));
            row.query().setError(extrasError(row.query(), ExtrasText.QUERY, problems, path + ".query"));
        }
    }

    /** Why a headers or query text is wrong: it cannot be read, or the validator refused an entry. */
    private static String extrasError(FieldModel field, ExtrasText format, Problems problems, String path) {
        String unreadable = format.parse(field.text()).error();
        if (!unreadable.isEmpty()) {
            return unreadable;
        }
        return problems.under(path).stream()
                .filter(FileProblem::isError)
                .map(p -> p.keyPath().substring(path.length() + 1) + " " + p.message())
                .distinct()
                .collect(Collectors.joining("; "));
    }

    boolean valid() {
        return providers.stream()
                .allMatch(r -> r.key().errorProperty().get().isEmpty()
                        && r.baseUrl().errorProperty().get().isEmpty()
                        && r.models().errorProperty().get().isEmpty()
                        && r.headers().errorProperty().get().isEmpty()
                        && r.query().errorProperty().get().isEmpty());
    }

    /** The credential edits as they are now; call on the FX thread. */
    CredentialEdits credentialEdits() {
        return new CredentialEdits(
                credentials.stream()
                        .filter(row -> !row.isNew() && row.removedProperty().get())
                        .map(row -> new CredentialEdits.Removal(row.provider(), row.label()))
                        .toList(),
                credentials.stream()
                        .filter(CredentialRow::isNew)
                        .map(row -> new CredentialEdits.Addition(row.provider(), row.label(), row.pending()))
                        .toList());
    }
}
