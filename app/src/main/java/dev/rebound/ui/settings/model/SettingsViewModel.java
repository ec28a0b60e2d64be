package dev.rebound.ui.settings.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.files.FileProblem;
import dev.rebound.settings.JsonMergePatch;
import dev.rebound.settings.Settings;
import dev.rebound.settings.SettingsUpdate;
import dev.rebound.settings.SettingsValidator;
import dev.rebound.settings.WriteFailures;
import dev.rebound.transcript.ModelRef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings window's state: a view-model per tab, validated as typed by running the real
 * {@link SettingsValidator} over the settings with the edit applied, each reason shown at the field of its key path.
 * Save is possible only while nothing is invalid; it runs off the FX thread through
 * {@link dev.rebound.settings.SettingsStore#update} (the same path as RPC {@code set_settings}, so running sessions use
 * the new settings at their next decision), then writes credentials and plugin switches. A failed save keeps every
 * edit and says why. Cancel is the window dropping this view-model. Confined to the FX thread.
 */
public final class SettingsViewModel {
    private static final Logger LOG = LoggerFactory.getLogger(SettingsViewModel.class);

    /** Where the window is. */
    public enum State {
        EDITING,
        SAVING,
        SAVED
    }

    private final SettingsServices services;
    private final Executor fx;
    private final Executor background;
    private final ObjectNode base;
    private final RetryTabModel retry;
    private final ChainsTabModel chains;
    private final ProvidersTabModel providers;
    private final PluginsTabModel plugins;
    private final ChatTabModel chat;
    private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(this, "state", State.EDITING);
    private final ReadOnlyBooleanWrapper valid = new ReadOnlyBooleanWrapper(this, "valid", true);
    private final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(this, "canSave", true);
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final ReadOnlyBooleanWrapper editable = new ReadOnlyBooleanWrapper(this, "editable", true);
    private boolean ready;

    /**
     * @param fx how work reaches the FX thread
     * @param background where files are written
     */
    public SettingsViewModel(SettingsServices services, Executor fx, Executor background) {
        this.services = Objects.requireNonNull(services, "services");
        this.fx = fx;
        this.background = background;
        Settings now = services.settings().current();
        this.base = services.settings().effectiveJson();
        this.retry = new RetryTabModel(now.retry());
        this.chains = new ChainsTabModel(now.retry().fallbackChains(), this::revalidate);
        this.providers = new ProvidersTabModel(
                now.providers(),
                base.path("providers"),
                services.credentials(),
                services.tester(),
                fx,
                background,
                this::revalidate);
        this.plugins = new PluginsTabModel(services.plugins().plugins());
        this.chat = new ChatTabModel(now);
        chat.systemPrompt().textProperty().addListener((o, a, b) -> revalidate());
        retry.fields().forEach(f -> f.textProperty().addListener((o, a, b) -> revalidate()));
        retry.enabledProperty().addListener((o, a, b) -> revalidate());
        retry.modelFallbackProperty().addListener((o, a, b) -> revalidate());
        retry.revertPolicyProperty().addListener((o, a, b) -> revalidate());
        ready = true;
        revalidate();
    }

    public RetryTabModel retry() {
        return retry;
    }

    public ChainsTabModel chains() {
        return chains;
    }

    public ProvidersTabModel providers() {
        return providers;
    }

    public PluginsTabModel plugins() {
        return plugins;
    }

    /** The Chat tab: the default system prompt. */
    public ChatTabModel chat() {
        return chat;
    }

    public ReadOnlyObjectProperty<State> stateProperty() {
        return state.getReadOnlyProperty();
    }

    /** Whether every field is acceptable. */
    public ReadOnlyBooleanProperty validProperty() {
        return valid.getReadOnlyProperty();
    }

    /** Whether Save may be pressed: everything valid and no save running. */
    public ReadOnlyBooleanProperty canSaveProperty() {
        return canSave.getReadOnlyProperty();
    }

    /** Whether the fields and Cancel may be used: not while a save runs. */
    public ReadOnlyBooleanProperty editableProperty() {
        return editable.getReadOnlyProperty();
    }

    /** What the window says under the tabs: problems that belong to no field, or why a save failed. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** The merge patch of settings.json the edits make; empty when they change nothing there. */
    public ObjectNode patch() {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode retryPatch = JsonNodeFactory.instance.objectNode();
        retry.patchInto(retryPatch);
        chains.patchInto(retryPatch);
        if (!retryPatch.isEmpty()) {
            patch.set("retry", retryPatch);
        }
        providers.patchInto(patch);
        chat.patchInto(patch);
        return patch;
    }

    private void revalidate() {
        if (!ready) {
            return;
        }
        JsonNode candidate = JsonMergePatch.apply(base, patch());
        SettingsValidator.Result result = SettingsValidator.validate(candidate);
        Problems problems = new Problems(result.problems());
        retry.show(problems);
        providers.show(problems);
        chat.show(problems);
        chains.show(
                problems,
                result.settings().allModels().stream().map(ModelRef::selector).toList());
        boolean ok = retry.valid() && providers.valid() && chat.valid() && !result.hasErrors();
        valid.set(ok);
        if (state.get() != State.SAVING) {
            List<FileProblem> elsewhere = result.errors().stream()
                    .filter(p -> !p.keyPath().startsWith("retry.")
                            && !p.keyPath().startsWith("providers")
                            && !p.keyPath().equals("systemPrompt"))
                    .toList();
            message.set(
                    elsewhere.isEmpty()
                            ? ""
                            : "settings.json has problems this window does not edit; fix " + "them in the file first: "
                                    + describe(elsewhere));
        }
        canSave.set(ok && state.get() != State.SAVING);
    }

    /**
     * Saves the edits off the FX thread; {@link #stateProperty()} becomes SAVED, or EDITING with a message. Every edit
     * is taken here, on the FX thread; the window keeps its fields and Cancel disabled until the save ends
     * ({@link #editableProperty()}), so what was saved is what the window showed.
     */
    public void save() {
        if (!canSave.get()) {
            return;
        }
        ObjectNode patch = patch();
        CredentialEdits credentialEdits = providers.credentialEdits();
        Map<String, Boolean> pluginSwitches = plugins.switches();
        state.set(State.SAVING);
        editable.set(false);
        canSave.set(false);
        message.set("Saving…");
        background.execute(() -> {
            String failure = write(patch, credentialEdits, pluginSwitches);
            fx.execute(() -> finish(failure));
        });
    }

    /** Writes everything; returns why it failed, for a person, or null. Runs off the FX thread. */
    private String write(ObjectNode patch, CredentialEdits credentialEdits, Map<String, Boolean> pluginSwitches) {
        if (!patch.isEmpty()) {
            SettingsUpdate update = services.settings().update(patch);
            if (update instanceof SettingsUpdate.Rejected rejected) {
                return "Settings were not saved: " + describe(rejected.reasons()) + " Your edits are still here.";
            }
        }
        if (!credentialEdits.isEmpty()) {
            Path file = services.credentials().file();
            try {
                credentialEdits.writeTo(services.credentials());
            } catch (IOException | RuntimeException e) {
                LOG.warn("Saving credentials to {} failed", file, e);
                return "Credentials were not saved: " + WriteFailures.explain(file, e)
                        + " Other settings were saved; your credential edits are still here.";
            }
        }
        if (!pluginSwitches.isEmpty()) {
            Path folder = services.pluginsDir();
            try {
                PluginsTabModel.save(services.plugins(), pluginSwitches);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Saving plugin switches in {} failed", folder, e);
                return "Plugin changes were not saved: "
                        + (folder == null
                                ? "the plugin folder could not be written."
                                : WriteFailures.explain(folder, e))
                        + " Your edits are still here.";
            }
        }
        return null;
    }

    private void finish(String failure) {
        if (failure == null) {
            message.set("Saved. Running chats use the new settings from their next request.");
            state.set(State.SAVED);
            return;
        }
        state.set(State.EDITING);
        editable.set(true);
        message.set(failure);
        canSave.set(valid.get());
    }

    private static String describe(List<FileProblem> problems) {
        return problems.stream().map(FileProblem::describe).collect(Collectors.joining("; "));
    }
}
