package dev.rebound.ui.model;

/**
 * The failures the "Simulate failures" menu can queue on the built-in simulator, each for the next request(s). What
 * each one is on the wire (status, headers, body) is the simulator's business, behind {@link SimulatorPort}.
 */
public enum SimulatedFailure {
    OVERLOAD_3("Overload ×3 (529)", "Three overloaded answers in a row: three retries, then the reply."),
    RATE_LIMIT("Rate limit (429, retry-after 5 s)", "A rate limit that asks to wait 5 seconds before the retry."),
    USAGE_LIMIT("Usage limit (switches key)", "The key's usage limit is reached: Rebound switches to the other key."),
    INSUFFICIENT_QUOTA("Insufficient quota", "The account is out of credit: Rebound switches key without waiting."),
    CONNECTION_RESET("Connection reset", "The connection drops before any answer: a transient failure, retried."),
    CUT_REPLY("Cut the reply", "The reply stops after a few lines; text was shown, so it is not retried."),
    STALL("Stall", "The reply stops arriving while the connection stays open, until the idle timeout."),
    REFUSAL("Refusal", "The model refuses to answer (retried only through a fallback model)."),
    CONTEXT_OVERFLOW("Context overflow", "The conversation is too long for the model: never retried."),
    UNAUTHORIZED("Unauthorized (401)", "The key is rejected: a terminal failure, never retried.");

    private final String label;
    private final String description;

    SimulatedFailure(String label, String description) {
        this.label = label;
        this.description = description;
    }

    /** The menu item's text. */
    public String label() {
        return label;
    }

    /** What happens, for the item's tooltip. */
    public String description() {
        return description;
    }
}
