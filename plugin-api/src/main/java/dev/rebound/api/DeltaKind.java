package dev.rebound.api;

/** What a streamed piece of a reply is. */
public enum DeltaKind {
    /** Answer text. */
    TEXT("text"),
    /** Reasoning text. */
    THINKING("thinking");

    private final String wireName;

    DeltaKind(String wireName) {
        this.wireName = wireName;
    }

    /** The name in RPC's JSON ({@code text}, {@code thinking}). */
    @Override
    public String toString() {
        return wireName;
    }
}
