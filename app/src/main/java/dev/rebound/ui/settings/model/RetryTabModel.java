package dev.rebound.ui.settings.model;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.RetrySettings.RevertPolicy;
import java.util.List;
import java.util.regex.Pattern;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * The Retry tab: the scalar members of the {@code retry} group. Numbers are kept as typed; a text that is not a whole
 * number goes into the candidate edit as text, so the validator's own reason ("must be a whole number") reaches the
 * field. Only what changed is written.
 */
public final class RetryTabModel {
    private static final Pattern WHOLE = Pattern.compile("-?\\d{1,18}");

    private final RetrySettings initial;
    private final BooleanProperty enabled;
    private final FieldModel maxRetries;
    private final FieldModel baseDelayMs;
    private final FieldModel maxDelayMs;
    private final FieldModel maxElapsedMs;
    private final BooleanProperty modelFallback;
    private final ObjectProperty<RevertPolicy> revertPolicy;
    private final FieldModel refusalPinMs;

    RetryTabModel(RetrySettings initial) {
        this.initial = initial;
        enabled = new SimpleBooleanProperty(this, "enabled", initial.enabled());
        maxRetries = new FieldModel("retry.maxRetries", Integer.toString(initial.maxRetries()));
        baseDelayMs = new FieldModel("retry.baseDelayMs", Long.toString(initial.baseDelayMs()));
        maxDelayMs = new FieldModel("retry.maxDelayMs", Long.toString(initial.maxDelayMs()));
        maxElapsedMs = new FieldModel("retry.maxElapsedMs", Long.toString(initial.maxElapsedMs()));
        modelFallback = new SimpleBooleanProperty(this, "modelFallback", initial.modelFallback());
        revertPolicy = new SimpleObjectProperty<>(this, "revertPolicy", initial.fallbackRevertPolicy());
        refusalPinMs = new FieldModel("retry.refusalPinMs", Long.toString(initial.refusalPinMs()));
    }

    public BooleanProperty enabledProperty() {
        return enabled;
    }

    public FieldModel maxRetries() {
        return maxRetries;
    }

    public FieldModel baseDelayMs() {
        return baseDelayMs;
    }

    /** The longest wait accepted; 0 means no cap. */
    public FieldModel maxDelayMs() {
        return maxDelayMs;
    }

    /** The time budget of one chain; 0 means none. */
    public FieldModel maxElapsedMs() {
        return maxElapsedMs;
    }

    public BooleanProperty modelFallbackProperty() {
        return modelFallback;
    }

    public ObjectProperty<RevertPolicy> revertPolicyProperty() {
        return revertPolicy;
    }

    public FieldModel refusalPinMs() {
        return refusalPinMs;
    }

    List<FieldModel> fields() {
        return List.of(maxRetries, baseDelayMs, maxDelayMs, maxElapsedMs, refusalPinMs);
    }

    /** Adds what changed to the {@code retry} object of a merge patch. */
    void patchInto(ObjectNode retry) {
        if (enabled.get() != initial.enabled()) {
            retry.put("enabled", enabled.get());
        }
        if (modelFallback.get() != initial.modelFallback()) {
            retry.put("modelFallback", modelFallback.get());
        }
        if (revertPolicy.get() != null && revertPolicy.get() != initial.fallbackRevertPolicy()) {
            retry.put("fallbackRevertPolicy", revertPolicy.get().toString());
        }
        for (FieldModel field : fields()) {
            if (field.changed()) {
                String member = field.keyPath().substring("retry.".length());
                String text = field.text().strip();
                retry.set(
                        member,
                        WHOLE.matcher(text).matches()
                                ? JsonNodeFactory.instance.numberNode(Long.parseLong(text))
                                : JsonNodeFactory.instance.textNode(text));
            }
        }
    }

    void show(Problems problems) {
        for (FieldModel field : fields()) {
            field.setError(
                    field.text().isBlank()
                            ? "enter a whole number"
                            : problems.errorAt(field.keyPath()).orElse(""));
        }
    }

    boolean valid() {
        return fields().stream().allMatch(f -> f.errorProperty().get().isEmpty());
    }
}
