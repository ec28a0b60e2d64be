package dev.rebound.ui.model;

import java.util.Comparator;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * The text selected in a chat: a range within one message (a prompt, or a reply over all its parts), kept here rather
 * than in the nodes that show it, so it survives a list cell being reused or scrolled away and a reply that keeps
 * streaming. Positions are {@link Spot}s: which part of the message, which text block of that part (in the order the
 * view renders them), and which character of that block. The view decides what a block is; this only orders and holds
 * them. Confined to the FX thread.
 */
public final class TextSelection {

    /**
     * A position between two characters.
     *
     * @param part the message's part (a reply's row; 0 for a prompt)
     * @param block the text block within the part, from 0, in reading order
     * @param offset the character within the block, from 0 (an embedded link counts as one)
     */
    public record Spot(int part, int block, int offset) implements Comparable<Spot> {
        /** Before everything in a message. */
        public static final Spot START = new Spot(0, 0, 0);

        /** After everything in a message: readers clamp it to the message's end. */
        public static final Spot END = new Spot(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);

        private static final Comparator<Spot> ORDER = Comparator.comparingInt(Spot::part)
                .thenComparingInt(Spot::block)
                .thenComparingInt(Spot::offset);

        @Override
        public int compareTo(Spot other) {
            return ORDER.compare(this, other);
        }
    }

    /**
     * A selected range.
     *
     * @param message the prompt or reply it lies in (compared by identity: two equal prompts are two messages)
     * @param anchor where the selection began (a drag's start)
     * @param focus where it ends now (the pointer, or the keyboard's end)
     */
    public record Range(ChatItem message, Spot anchor, Spot focus) {
        /** The earlier of anchor and focus. */
        public Spot start() {
            return anchor.compareTo(focus) <= 0 ? anchor : focus;
        }

        /** The later of anchor and focus. */
        public Spot end() {
            return anchor.compareTo(focus) <= 0 ? focus : anchor;
        }

        /** Whether nothing lies between anchor and focus. */
        public boolean isEmpty() {
            return anchor.equals(focus);
        }

        /** Whether this range lies in {@code item} (the same object). */
        public boolean in(ChatItem item) {
            return message == item;
        }

        /** Equal when in the same message object (not an equal one: two prompts may read the same) at equal spots. */
        @Override
        public boolean equals(Object other) {
            return other instanceof Range r && r.message == message && r.anchor.equals(anchor) && r.focus.equals(focus);
        }

        @Override
        public int hashCode() {
            return (System.identityHashCode(message) * 31 + anchor.hashCode()) * 31 + focus.hashCode();
        }
    }

    private final ReadOnlyObjectWrapper<Range> range = new ReadOnlyObjectWrapper<>(this, "range");

    /** The selection, or null when nothing is selected. Views listen to it to paint the highlight. */
    public ReadOnlyObjectProperty<Range> rangeProperty() {
        return range.getReadOnlyProperty();
    }

    /** The selection, or null. */
    public Range range() {
        return range.get();
    }

    /** Selects from {@code anchor} to {@code focus} in {@code message} (an empty range is a place, not a selection). */
    public void select(ChatItem message, Spot anchor, Spot focus) {
        Range now = range.get();
        if (now == null
                || now.message() != message
                || !now.anchor().equals(anchor)
                || !now.focus().equals(focus)) {
            range.set(new Range(message, anchor, focus));
        }
    }

    /** Selects nothing. */
    public void clear() {
        range.set(null);
    }

    /** Whether some text is selected (a range that is not empty). */
    public boolean hasSelection() {
        Range r = range.get();
        return r != null && !r.isEmpty();
    }
}
