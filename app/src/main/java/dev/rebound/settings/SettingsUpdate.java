package dev.rebound.settings;

import dev.rebound.files.FileProblem;
import java.util.List;
import java.util.Objects;

/** The outcome of {@link SettingsStore#update}: applied and saved whole, or refused whole. */
public sealed interface SettingsUpdate {

    /**
     * The edit was valid, saved and is now {@link SettingsStore#current()}.
     *
     * @param keptBroken where the settings file Rebound could not read was kept before this save replaced it, or null
     */
    record Applied(Settings settings, java.nio.file.Path keptBroken) implements SettingsUpdate {
        public Applied {
            Objects.requireNonNull(settings, "settings");
        }

        /** An edit that replaced a readable file. */
        public Applied(Settings settings) {
            this(settings, null);
        }
    }

    /** The edit was refused; nothing changed, in memory or on disk. */
    record Rejected(List<FileProblem> reasons) implements SettingsUpdate {
        public Rejected {
            reasons = List.copyOf(reasons);
        }
    }
}
