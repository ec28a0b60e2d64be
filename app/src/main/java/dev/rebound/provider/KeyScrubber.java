package dev.rebound.provider;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Removes an API key from streamed text whose pieces may split it: a trailing piece that could be the start of the key
 * is held back until the next piece shows whether it is. {@link #flush()} releases what is held at the end (a proper
 * prefix of the key, which is no longer a secret on its own). One scrubber per stream, on one thread.
 */
public final class KeyScrubber {
    /** What replaces a key. */
    public static final String REDACTED = "[redacted]";

    /** The keys, longest first, so that a key containing another is replaced whole. */
    private final List<String> keys;

    private final int longest;
    private final StringBuilder pending = new StringBuilder();

    /** @param key the key to remove, or null to pass everything through */
    public KeyScrubber(String key) {
        this(key == null ? List.of() : List.of(key));
    }

    /** @param keys every key to remove (null and empty ones are ignored) */
    public KeyScrubber(Collection<String> keys) {
        this.keys = keys.stream()
                .filter(k -> k != null && !k.isEmpty())
                .distinct()
                .sorted(Comparator.comparingInt(String::length).reversed())
                .toList();
        this.longest = this.keys.isEmpty() ? 0 : this.keys.getFirst().length();
    }

    /** Removes every whole occurrence of every key from a complete text. */
    public String scrub(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String key : keys) {
            out = out.replace(key, REDACTED);
        }
        return out;
    }

    /** Takes the next piece; returns what can safely be shown now (possibly empty). */
    public String push(String piece) {
        if (keys.isEmpty()) {
            return piece;
        }
        pending.append(piece);
        for (String key : keys) {
            int found;
            while ((found = pending.indexOf(key)) >= 0) {
                pending.replace(found, found + key.length(), REDACTED);
            }
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

    /** Where the longest suffix of the pending text that could still grow into one of the keys begins. */
    private int heldSuffixStart() {
        int length = pending.length();
        for (int start = Math.max(0, length - longest + 1); start < length; start++) {
            for (String key : keys) {
                if (length - start < key.length() && startsKey(key, start, length)) {
                    return start;
                }
            }
        }
        return length;
    }

    private boolean startsKey(String key, int start, int end) {
        for (int i = start; i < end; i++) {
            if (pending.charAt(i) != key.charAt(i - start)) {
                return false;
            }
        }
        return true;
    }
}
