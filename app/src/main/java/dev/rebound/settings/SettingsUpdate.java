package dev.rebound.settings;

import dev.rebound.files.FileProblem;
import java.util.List;
import java.util.Objects;

/** The outcome of {@link SettingsStore#update}: applied and saved whole, or refused whole. */
public sealed interface SettingsUpdate {

    /** The edit was valid, saved and is now {@link SettingsStore#current()}. */
    record Applied(Settings settings) implements SettingsUpdate {
        public Applied {
            Objects.requireNonNull(settings, "settings");
        }
    }

    /** The edit was refused; nothing changed, in memory or on disk. */
    record Rejected(List<FileProblem> reasons) implements SettingsUpdate {
        public Rejected {
            reasons = List.copyOf(reasons);
        }
    }
}
