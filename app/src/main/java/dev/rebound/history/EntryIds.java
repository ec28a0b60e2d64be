package dev.rebound.history;

/** The rule every entry id follows. */
final class EntryIds {
    private EntryIds() {}

    /**
     * Checks an entry id.
     *
     * @throws IllegalArgumentException when it is null or blank
     */
    static void require(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("a journal entry needs a non-blank id");
        }
    }
}
