package dev.rebound.ui.settings.model;

import java.util.Objects;
import java.util.function.UnaryOperator;
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
    private final UnaryOperator<String> canonical;

    /**
     * @param keyPath where the validator reports this field's problems; empty when the path depends on other fields
     *     (a provider's fields follow the key typed for it)
     * @param initial the text the field starts with
     */
    public FieldModel(String keyPath, String initial) {
        this(keyPath, initial, text -> null);
    }

    /**
     * A field whose valid texts have a canonical form ("90s" is shown as "1 min 30 s" once the field is left).
     *
     * @param canonical a text's canonical form, or null when the text has none (it is invalid)
     */
    public FieldModel(String keyPath, String initial, UnaryOperator<String> canonical) {
        this.keyPath = Objects.requireNonNull(keyPath, "keyPath");
        this.initial = initial == null ? "" : initial;
        this.text = new SimpleStringProperty(this, "text", this.initial);
        this.canonical = Objects.requireNonNull(canonical, "canonical");
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

    /**
     * Replaces the text by its canonical form, if it has one (the view calls this when the field loses the focus). An
     * invalid text is left as typed, so its reason stays next to what the user wrote.
     */
    public void tidy() {
        String tidied = canonical.apply(text.get());
        if (tidied != null && !tidied.equals(text.get())) {
            text.set(tidied);
        }
    }

    /** Whether the text differs from what the field started with. */
    public boolean changed() {
        return !initial.equals(text.get());
    }
}
