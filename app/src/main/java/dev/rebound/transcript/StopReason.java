package dev.rebound.transcript;

/** Why an assistant message ended. {@link #toString()} gives the wire name used in JSON. */
public enum StopReason {
    /** The model finished its answer. */
    STOP("stop"),
    /** The model hit its output token limit. */
    LENGTH("length"),
    /** The model stopped to call a tool. */
    TOOL_USE("toolUse"),
    /** The call failed; the message carries an error message. */
    ERROR("error"),
    /** The call was aborted before it finished. */
    ABORTED("aborted");

    private final String wireName;

    StopReason(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
