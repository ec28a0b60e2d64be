package dev.rebound.api;

/** How much a {@link Notice} matters. */
public enum NoticeLevel {
    /** For information. */
    INFO("info"),
    /** Something the user may want to act on. */
    WARNING("warning"),
    /** Something failed. */
    ERROR("error");

    private final String wireName;

    NoticeLevel(String wireName) {
        this.wireName = wireName;
    }

    /** The name in RPC's JSON. */
    @Override
    public String toString() {
        return wireName;
    }
}
