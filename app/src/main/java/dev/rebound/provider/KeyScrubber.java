package dev.rebound.provider;

/**
 * Removes an API key from streamed text whose pieces may split it: a trailing piece that could be the start of the key
 * is held back until the next piece shows whether it is. {@link #flush()} releases what is held at the end (a proper
 * prefix of the key, which is no longer a secret on its own). One scrubber per stream, on one thread.
 */
public final class KeyScrubber {
    /** What replaces the key. */
    public static final String REDACTED = "[redacted]";

    private final String key;
    private final StringBuilder pending = new StringBuilder();

    /** @param key the key to remove, or null to pass everything through */
    public KeyScrubber(String key) {
        this.key = key == null || key.isEmpty() ? null : key;
    }

    /** Removes every whole occurrence of the key from a complete text. */
    public String scrub(String text) {
        return key == null || text == null ? text : text.replace(key, REDACTED);
    }

    /** Takes the next piece; returns what can safely be shown now (possibly empty). */
    public String push(String piece) {
        if (key == null) {
            return piece;
        }
        pending.append(piece);
        int found;
        while ((found = pending.indexOf(key)) >= 0) {
            pending.replace(found, found + key.length(), REDACTED);
        }
        int hold = heldSuffixStart();
        String safe = pending.substring(0, hold);
        pending.delete(0, hold);
        return safe;
    }

    /** How many characters are held back now (pushed but not yet released). */
    public int held() {
        return pending.length();
    }

    /** Releases what is held back; the stream ended. */
    public String flush() {
        String rest = pending.toString();
        pending.setLength(0);
        return rest;
    }

    /** Where the longest suffix of the pending text that could still grow into the key begins. */
    private int heldSuffixStart() {
        int length = pending.length();
        for (int start = Math.max(0, length - key.length() + 1); start < length; start++) {
            if (startsKey(start, length)) {
                return start;
            }
        }
        return length;
    }

    private boolean startsKey(int start, int end) {
        for (int i = start; i < end; i++) {
            if (pending.charAt(i) != key.charAt(i - start)) {
                return false;
            }
        }
        return true;
    }
}
