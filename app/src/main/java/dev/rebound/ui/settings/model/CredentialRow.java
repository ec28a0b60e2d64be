package dev.rebound.ui.settings.model;

import dev.rebound.auth.ApiKeySource;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;

/**
 * A credential as the window shows it: provider, label and a display that never holds more than the last 4
 * characters of a key. A row added in the window carries its key source until Save; a saved row may be marked for
 * removal.
 *
 * @see KeyMask
 */
public final class CredentialRow {
    private final String provider;
    private final String label;
    private final String display;
    private final ApiKeySource pending;
    private final ReadOnlyBooleanWrapper removed = new ReadOnlyBooleanWrapper(this, "removed", false);

    CredentialRow(String provider, String label, String display, ApiKeySource pending) {
        this.provider = provider;
        this.label = label;
        this.display = display;
        this.pending = pending;
    }

    public String provider() {
        return provider;
    }

    public String label() {
        return label;
    }

    /** The masked key ({@code ••••abcd}), or the environment variable it is read from. */
    public String display() {
        return display;
    }

    /** Whether this row was added in the window and is not saved yet. */
    public boolean isNew() {
        return pending != null;
    }

    ApiKeySource pending() {
        return pending;
    }

    /** Whether Save will remove this saved credential. */
    public ReadOnlyBooleanProperty removedProperty() {
        return removed.getReadOnlyProperty();
    }

    void markRemoved() {
        removed.set(true);
    }
}
