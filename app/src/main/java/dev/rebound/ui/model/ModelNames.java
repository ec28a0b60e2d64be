package dev.rebound.ui.model;

import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.ModelRef;
import java.util.function.Supplier;

/**
 * What a model is called on screen: its configured display {@code name} (the built-in simulator's is
 * {@code Rebound Simulator (offline)}), else its selector {@code provider/id}. Read from the settings in effect at each
 * call, so a renamed model shows its new name at once.
 */
public final class ModelNames {
    private final Supplier<Settings> settings;

    public ModelNames(Supplier<Settings> settings) {
        this.settings = settings;
    }

    /** The name of a model, or an empty string for null. */
    public String of(ModelRef model) {
        if (model == null) {
            return "";
        }
        return settings.get()
                .findModel(model)
                .map(ModelConfig::name)
                .filter(name -> name != null && !name.isBlank())
                .orElse(model.selector());
    }

    /** The name of a model given as {@code provider/id} (as events carry it); text that is no selector is kept. */
    public String of(String selector) {
        if (selector == null) {
            return "";
        }
        try {
            return of(ModelRef.parse(selector));
        } catch (IllegalArgumentException e) {
            return selector;
        }
    }
}
