package dev.rebound.ui.settings.model;

import java.util.List;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * One fallback chain: its key (a role, {@code provider/*} or an exact model) and its ordered models. The key is fixed
 * once added; a chain is renamed by adding another.
 */
public final class ChainRow {
    private final String key;
    private final ObservableList<String> models;
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper(this, "problem", "");

    ChainRow(String key, List<String> models) {
        this.key = key;
        this.models = FXCollections.observableArrayList(models);
    }

    public String key() {
        return key;
    }

    /** The models in the order they are tried; edit through {@link ChainsTabModel}. */
    public ObservableList<String> models() {
        return FXCollections.unmodifiableObservableList(models);
    }

    ObservableList<String> editableModels() {
        return models;
    }

    /** What the validator warns about this chain (an unconfigured model or provider), for a person; empty if none. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    void setProblem(String text) {
        problem.set(text);
    }

    @Override
    public String toString() {
        return key;
    }
}
