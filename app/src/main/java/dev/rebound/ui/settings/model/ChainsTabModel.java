package dev.rebound.ui.settings.model;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.files.FileProblem;
import dev.rebound.files.KeyPath;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Fallback chains tab: chains keyed by role, {@code provider/*} or exact model, each an ordered list of models
 * picked from the configured ones. Models that are not configured stay in the chain but are flagged, as the validator
 * warns (the retry engine skips them). The chains are written whole when any changed.
 */
public final class ChainsTabModel {
    private final Map<String, List<String>> initial;
    private final ObservableList<ChainRow> chains = FXCollections.observableArrayList();
    private final ObservableList<String> configuredModels = FXCollections.observableArrayList();
    private final StringProperty newKey = new SimpleStringProperty(this, "newKey", "");
    private final ReadOnlyStringWrapper newKeyError = new ReadOnlyStringWrapper(this, "newKeyError", "");
    private final Runnable changed;

    ChainsTabModel(Map<String, List<String>> initial, Runnable changed) {
        this.initial = new LinkedHashMap<>(initial);
        this.changed = changed;
        initial.forEach((key, models) -> chains.add(new ChainRow(key, models)));
    }

    public ObservableList<ChainRow> chains() {
        return FXCollections.unmodifiableObservableList(chains);
    }

    /** The models the providers tab configures now, as selectors: what a chain can pick from. */
    public ObservableList<String> configuredModels() {
        return FXCollections.unmodifiableObservableList(configuredModels);
    }

    /** The key of the chain to add next. */
    public StringProperty newKeyProperty() {
        return newKey;
    }

    /** Why {@link #newKeyProperty()} cannot be added, for a person; empty after a successful add. */
    public ReadOnlyStringProperty newKeyErrorProperty() {
        return newKeyError.getReadOnlyProperty();
    }

    /** Whether the model is configured (a chain entry that is not is flagged). */
    public boolean isConfigured(String model) {
        return configuredModels.contains(model);
    }

    /** Adds an empty chain of key {@link #newKeyProperty()}; returns it, or null when the key is not acceptable. */
    public ChainRow addChain() {
        String key = newKey.get() == null ? "" : newKey.get().strip();
        String reason = keyProblem(key);
        newKeyError.set(reason);
        if (!reason.isEmpty()) {
            return null;
        }
        ChainRow row = new ChainRow(key, List.of());
        chains.add(row);
        newKey.set("");
        changed.run();
        return row;
    }

    private String keyProblem(String key) {
        if (key.isEmpty()) {
            return "Type a chain key: a role (default, title), provider/* or provider/model.";
        }
        if (chains.stream().anyMatch(c -> c.key().equals(key))) {
            return "There is already a chain for '" + key + "'.";
        }
        int slash = key.indexOf('/');
        if (slash == 0 || slash == key.length() - 1 || (slash > 0 && key.indexOf('/', slash + 1) >= 0)) {
            return "'" + key + "' is not a role, provider/* or provider/model.";
        }
        return "";
    }

    public void removeChain(ChainRow row) {
        if (chains.remove(row)) {
            changed.run();
        }
    }

    /** Appends a model to a chain, unless it is already there. */
    public void addModel(ChainRow row, String model) {
        if (model != null && !model.isBlank() && !row.editableModels().contains(model)) {
            row.editableModels().add(model);
            changed.run();
        }
    }

    public void removeModel(ChainRow row, int index) {
        if (index >= 0 && index < row.editableModels().size()) {
            row.editableModels().remove(index);
            changed.run();
        }
    }

    /** Moves the model at {@code index} one place earlier; returns its new index. */
    public int moveUp(ChainRow row, int index) {
        return move(row, index, index - 1);
    }

    /** Moves the model at {@code index} one place later; returns its new index. */
    public int moveDown(ChainRow row, int index) {
        return move(row, index, index + 1);
    }

    private int move(ChainRow row, int from, int to) {
        ObservableList<String> models = row.editableModels();
        if (from < 0 || from >= models.size() || to < 0 || to >= models.size()) {
            return from;
        }
        String moved = models.remove(from);
        models.add(to, moved);
        changed.run();
        return to;
    }

    private Map<String, List<String>> current() {
        Map<String, List<String>> now = new LinkedHashMap<>();
        chains.forEach(c -> now.put(c.key(), List.copyOf(c.editableModels())));
        return now;
    }

    /** Writes {@code fallbackChains} whole into the {@code retry} object of a merge patch when any chain changed. */
    void patchInto(ObjectNode retry) {
        Map<String, List<String>> now = current();
        if (now.equals(initial)) {
            return;
        }
        ObjectNode out = retry.putObject("fallbackChains");
        initial.keySet().stream().filter(k -> !now.containsKey(k)).forEach(out::putNull);
        now.forEach((key, models) -> {
            ArrayNode array = out.putArray(key);
            models.forEach(array::add);
        });
    }

    void show(Problems problems, Collection<String> configured) {
        if (!configuredModels.equals(List.copyOf(configured))) {
            configuredModels.setAll(configured);
        }
        for (ChainRow row : chains) {
            row.setProblem(problems.under(KeyPath.child("retry.fallbackChains", row.key())).stream()
                    .map(FileProblem::message)
                    .distinct()
                    .collect(Collectors.joining("; ")));
        }
    }
}
