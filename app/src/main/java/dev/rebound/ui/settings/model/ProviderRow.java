package dev.rebound.ui.settings.model;

import dev.rebound.files.KeyPath;
import dev.rebound.settings.ProviderApi;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;

/**
 * One provider being edited: key, api, base URL and its model ids (typed comma-separated), each field with the
 * validator's reason at its key path, and the outcome of the last Test connection.
 */
public final class ProviderRow {
    private final String originalKey;
    private final FieldModel key;
    private final ObjectProperty<ProviderApi> api;
    private final FieldModel baseUrl;
    private final FieldModel models;
    private final ReadOnlyStringWrapper testResult = new ReadOnlyStringWrapper(this, "testResult", "");
    private final ReadOnlyBooleanWrapper testing = new ReadOnlyBooleanWrapper(this, "testing", false);

    ProviderRow(String originalKey, ProviderApi api, String baseUrl, List<String> modelIds) {
        this.originalKey = originalKey;
        this.key = new FieldModel("", originalKey);
        this.api = new SimpleObjectProperty<>(this, "api", api);
        this.baseUrl = new FieldModel("", baseUrl);
        this.models = new FieldModel("", String.join(", ", modelIds));
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
