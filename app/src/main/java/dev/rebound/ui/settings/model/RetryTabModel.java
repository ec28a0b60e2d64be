package dev.rebound.ui.settings.model;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.RetrySettings.RevertPolicy;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * The Retry tab: the scalar members of the {@code retry} group. Max retries is kept as typed; a text that is not a
 * whole number goes into the candidate edit as text, so the validator's own reason ("must be a whole number") reaches
 * the field. The four times are {@linkplain DurationText durations with units} ("30 s", "5 min"): a text that does not
 * read as one is refused at its field with the reader's reason and left out of the edit; one that does goes into the
 * edit in milliseconds, as settings.json keeps them, and the validator's limits are said back in units. Only what
 * changed is written.
 */
public final class RetryTabModel {
    private static final Pattern WHOLE = Pattern.compile("-?\\d{1,18}");
    private static final Pattern LIMIT = Pattern.compile("must be ([≤≥]) (\\d+)");

    private final RetrySettings initial;
    private final BooleanProperty enabled;
    private final FieldModel maxRetries;
    private final Duration baseDelayMs;
    private final Duration maxDelayMs;
    private final Duration maxElapsedMs;
    private final BooleanProperty modelFallback;
    private final ObjectProperty<RevertPolicy> revertPolicy;
    private final Duration refusalPinMs;

    /**
     * A duration field: its model, and the milliseconds it showed at first. A negative number in settings.json
     * (allowed where {@code <= 0} turns the limit off) is shown as "0", which means the same.
     */
    private record Duration(FieldModel field, long shown) {
        static Duration of(String keyPath, long millis) {
            long shown = Math.max(0, millis);
            return new Duration(new FieldModel(keyPath, DurationText.format(shown), RetryTabModel::canonical), shown);
        }

        DurationText.Result read() {
            return DurationText.parse(field.text());
        }
    }

    RetryTabModel(RetrySettings initial) {
        this.initial = initial;
        enabled = new SimpleBooleanProperty(this, "enabled", initial.enabled());
        maxRetries = new FieldModel("retry.maxRetries", Integer.toString(initial.maxRetries()));
        baseDelayMs = Duration.of("retry.baseDelayMs", initial.baseDelayMs());
        maxDelayMs = Duration.of("retry.maxDelayMs", initial.maxDelayMs());
        maxElapsedMs = Duration.of("retry.maxElapsedMs", initial.maxElapsedMs());
        modelFallback = new SimpleBooleanProperty(this, "modelFallback", initial.modelFallback());
        revertPolicy = new SimpleObjectProperty<>(this, "revertPolicy", initial.fallbackRevertPolicy());
        refusalPinMs = Duration.of("retry.refusalPinMs", initial.refusalPinMs());
    }

    public BooleanProperty enabledProperty() {
        return enabled;
    }

    public FieldModel maxRetries() {
        return maxRetries;
    }

    /** The first backoff wait, as a duration ("500 ms"). */
    public FieldModel baseDelay() {
        return baseDelayMs.field();
    }

    /** The longest wait accepted, as a duration; "0" means no cap. */
    public FieldModel maxDelay() {
        return maxDelayMs.field();
    }

    /** The time budget of one chain, as a duration; "0" means none. */
    public FieldModel timeBudget() {
        return maxElapsedMs.field();
    }

    public BooleanProperty modelFallbackProperty() {
        return modelFallback;
    }

    public ObjectProperty<RevertPolicy> revertPolicyProperty() {
        return revertPolicy;
    }

    /** How long a model that refused stays replaced, as a duration. */
    public FieldModel refusalPin() {
        return refusalPinMs.field();
    }

    List<FieldModel> fields() {
        return List.of(maxRetries, baseDelayMs.field(), maxDelayMs.field(), maxElapsedMs.field(), refusalPinMs.field());
    }

    private List<Duration> durations() {
        return List.of(baseDelayMs, maxDelayMs, maxElapsedMs, refusalPinMs);
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
        if (maxRetries.changed()) {
            String text = maxRetries.text().strip();
            retry.set(
                    "maxRetries",
                    WHOLE.matcher(text).matches()
                            ? JsonNodeFactory.instance.numberNode(Long.parseLong(text))
                            : JsonNodeFactory.instance.textNode(text));
        }
        for (Duration duration : durations()) {
            // "300 s" where "5 min" was shown changes nothing; a text that is no duration stays out (refused at its
            // field).
            if (duration.read() instanceof DurationText.Millis(long millis) && millis != duration.shown()) {
                retry.put(member(duration.field()), millis);
            }
        }
    }

    void show(Problems problems) {
        maxRetries.setError(
                maxRetries.text().isBlank()
                        ? "enter a whole number"
                        : problems.errorAt(maxRetries.keyPath()).orElse(""));
        for (Duration duration : durations()) {
            FieldModel field = duration.field();
            field.setError(
                    switch (duration.read()) {
                        case DurationText.Refused(String reason) -> reason;
                        case DurationText.Millis m ->
                            problems.errorAt(field.keyPath())
                                    .map(RetryTabModel::inUnits)
                                    .orElse("");
                    });
        }
    }

    boolean valid() {
        return fields().stream().allMatch(f -> f.errorProperty().get().isEmpty());
    }

    private static String member(FieldModel field) {
        return field.keyPath().substring("retry.".length());
    }

    /** A duration's canonical text ("90s" → "1 min 30 s"), or null when the text is not a duration. */
    private static String canonical(String text) {
        return DurationText.parse(text) instanceof DurationText.Millis(long millis)
                ? DurationText.format(millis)
                : null;
    }

    /** The validator's limit in milliseconds said in units: "must be ≤ 3600000" → "must be at most 1 h". */
    private static String inUnits(String reason) {
        Matcher limit = LIMIT.matcher(reason);
        if (!limit.matches()) {
            return reason;
        }
        String bound = DurationText.format(Long.parseLong(limit.group(2)));
        return ("≤".equals(limit.group(1)) ? "must be at most " : "must be at least ") + bound;
    }
}
