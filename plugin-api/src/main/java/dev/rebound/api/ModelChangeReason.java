package dev.rebound.api;

/** Why the session's model changed. */
public enum ModelChangeReason {
    /** The user chose it. */
    USER("user"),
    /** A fallback model was applied after the model failed. */
    FALLBACK("fallback"),
    /** The session went back to its primary model. */
    REVERT("revert");

    private final String wireName;

    ModelChangeReason(String wireName) {
        this.wireName = wireName;
    }

    /** The name in RPC's JSON. */
    @Override
    public String toString() {
        return wireName;
    }
}
