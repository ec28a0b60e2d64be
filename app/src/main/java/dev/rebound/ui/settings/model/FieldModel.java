package dev.rebound.ui.settings.model;

import java.util.Objects;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * A text field of the settings window: its text, the text it started with, and the reason it is invalid (empty when
 * it is valid), reported by the validator at {@link #keyPath()}.
 */
public final class FieldModel {
    private final String keyPath;
    private final String initial;
    private final StringProperty text;
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");

    /**
     * @param keyPath where the validator reports this field's problems; empty when the path depends on other fields
     *     (a provider's fields follow the key typed for it)
     * @param initial the text the field starts with
     */
    public FieldModel(String keyPath, String initial) {
        this.keyPath = Objects.requireNonNull(keyPath, "keyPath");
        this.initial = initial == null ? "" : initial;
        this.text = new SimpleStringProperty(this, "text", this.initial);
    }

    /** Where the validator reports this field's problems ({@code retry.maxRetries}), or empty. */
    public String keyPath() {
        return keyPath;
    }

    public StringProperty textProperty() {
        return text;
    }

    public String text() {
        return text.get();
    }

    /** Why the text is not accepted, for a person; empty when it is. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    void setError(String reason) {
        error.set(reason == null ? "" : reason);
    }

    /** Whether the text differs from what the field started with. */
    public boolean changed() {
        return !initial.equals(text.get());
    }
}
