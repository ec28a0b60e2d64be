package dev.rebound.ui.settings.model;

import dev.rebound.auth.ApiKeySource;
import dev.rebound.auth.CredentialStore;
import java.io.IOException;
import java.util.List;

/**
 * The credential edits of the settings window, taken on the FX thread when Save is pressed, so the background write
 * never reads the window's rows.
 *
 * @param removals saved credentials to remove, as (provider, label)
 * @param additions credentials added in the window
 */
record CredentialEdits(List<Removal> removals, List<Addition> additions) {

    /** A saved credential Save removes. */
    record Removal(String provider, String label) {}

    /** A credential Save adds (or whose key it replaces). */
    record Addition(String provider, String label, ApiKeySource source) {}

    CredentialEdits {
        removals = List.copyOf(removals);
        additions = List.copyOf(additions);
    }

    boolean isEmpty() {
        return removals.isEmpty() && additions.isEmpty();
    }

    /** Writes the edits to credentials.json: removals first, then additions. */
    void writeTo(CredentialStore store) throws IOException {
        for (Removal removal : removals) {
            store.remove(removal.provider(), removal.label());
        }
        for (Addition addition : additions) {
            store.put(addition.provider(), addition.label(), addition.source());
        }
    }
}
