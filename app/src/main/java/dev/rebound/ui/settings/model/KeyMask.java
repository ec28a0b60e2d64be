package dev.rebound.ui.settings.model;

import dev.rebound.auth.Secret;

/** How the window shows an API key: masked, with at most its last 4 characters (none for a short key). */
public final class KeyMask {
    private KeyMask() {}

    /** The masked form of a key; the same rule as everywhere else keys are shown. */
    public static String mask(String key) {
        return key == null || key.isEmpty() ? "" : new Secret(key).masked();
    }
}
