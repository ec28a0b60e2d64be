package dev.rebound.ui.settings.model;

import dev.rebound.files.KeyPath;
import dev.rebound.settings.ProviderApi;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * One provider being edited: key, api, base URL, its model ids (typed comma-separated), its extra headers and query
 * parameters (one per line, see {@link ExtrasText}) and, for the Responses API, whether the server stores replies;
 * each field with the validator's reason at its key path, and the outcome of the last Test connection.
 */
public final class ProviderRow {
    private final String originalKey;
    private final FieldModel key;
    private final ObjectProperty<ProviderApi> api;
    private final FieldModel baseUrl;
    private final FieldModel models;
    private final FieldModel headers;
    private final FieldModel query;
    private final BooleanProperty store;
    private final ReadOnlyStringWrapper testResult = new ReadOnlyStringWrapper(this, "testResult", "");
    private final ReadOnlyBooleanWrapper testing = new ReadOnlyBooleanWrapper(this, "testing", false);

    ProviderRow(String originalKey, ProviderApi api, String baseUrl, List<String> modelIds) {
        this(originalKey, api, baseUrl, String.join(", ", modelIds), "", "", true);
    }

    ProviderRow(
            String originalKey,
            ProviderApi api,
            String baseUrl,
            String models,
            String headers,
            String query,
            boolean store) {
        this.originalKey = originalKey;
        this.key = new FieldModel("", originalKey);
        this.api = new SimpleObjectProperty<>(this, "api", api);
        this.baseUrl = new FieldModel("", baseUrl);
        this.models = new FieldModel("", models);
        this.headers = new FieldModel("", headers);
        this.query = new FieldModel("", query);
        this.store = new SimpleBooleanProperty(this, "store", store);
    }

    /** Extra headers, one {@code Name: value} per line; {@code ${VARIABLE}} reads an environment variable. */
    public FieldModel headers() {
        return headers;
    }

    /** Extra query parameters, one {@code name=value} per line. */
    public FieldModel query() {
        return query;
    }

    /** For {@code openai-responses}: whether the server stores replies so that a turn sends only what is new. */
    public BooleanProperty storeProperty() {
        return store;
    }

    /** Whether the api has a base URL, headers and a connection to test (all but the built-in simulator). */
    public boolean speaksHttp() {
        return api.get() != ProviderApi.SIMULATOR;
    }

    /** The key the provider had when the window opened, or null for a provider added here. */
    String originalKey() {
        return originalKey;
    }

    /** The provider's key: the first part of its model selectors. */
    public FieldModel key() {
        return key;
    }

    public ObjectProperty<ProviderApi> apiProperty() {
        return api;
    }

    public FieldModel baseUrl() {
        return baseUrl;
    }

    /** Model ids, comma-separated. */
    public FieldModel models() {
        return models;
    }

    /** The model ids typed, in order, blanks dropped. */
    public List<String> modelIds() {
        return java.util.Arrays.stream(models.text().split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** What the last Test connection found; empty before one. */
    public ReadOnlyStringProperty testResultProperty() {
        return testResult.getReadOnlyProperty();
    }

    /** Whether a Test connection is running. */
    public ReadOnlyBooleanProperty testingProperty() {
        return testing.getReadOnlyProperty();
    }

    void testStarted() {
        testing.set(true);
        testResult.set("Testing…");
    }

    void testFinished(ConnectionTester.Result result) {
        testing.set(false);
        testResult.set((result.ok() ? "✔ " : "✖ ") + result.message());
    }

    String keyPath() {
        return KeyPath.child("providers", key.text().strip());
    }

    @Override
    public String toString() {
        return key.text();
    }
}
