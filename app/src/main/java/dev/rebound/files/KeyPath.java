package dev.rebound.files;

import java.util.regex.Pattern;

/** Builds the key paths problems are reported at: {@code retry.maxRetries}, {@code providers.x.models[1].id}. */
public final class KeyPath {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_-]+");

    private KeyPath() {}

    /** The path of a member of an object; a key that is not a plain word is written {@code ["open/ai"]}. */
    public static String child(String parent, String key) {
        if (!PLAIN.matcher(key).matches()) {
            return parent + "[\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
        }
        return parent.isEmpty() ? key : parent + "." + key;
    }

    /** The path of an element of an array. */
    public static String index(String parent, int index) {
        return parent + "[" + index + "]";
    }
}
