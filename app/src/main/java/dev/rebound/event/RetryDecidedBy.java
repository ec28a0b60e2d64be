package dev.rebound.event;

/**
 * What decided the wait before a retry, as the chain's record keeps it for each retried attempt: the desktop's timeline
 * and a plugin can say why a retry came when it did. {@link #toString()} gives the wire name.
 */
public enum RetryDecidedBy {
    /** The exponential backoff of {@code retry.baseDelayMs}: the provider asked for no longer wait. */
    BACKOFF("backoff"),
    /** The provider's own hint ({@code retry-after}, a reset header or a delay in the error body) was longer. */
    PROVIDER_HINT("provider_hint"),
    /** The usage-limit rule of §5: the limit's reset time, its default wait, or the next key's unblock time. */
    USAGE_LIMIT("usage_limit"),
    /** Another key of the same provider took over at once. */
    CREDENTIAL_SWITCH("credential_switch"),
    /** Another model of the fallback chain took over at once. */
    MODEL_FALLBACK("model_fallback"),
    /** The server forgot the conversation: sent again at once with all of it (§3 step 5). */
    STALE_REPLAY("stale_replay");

    private final String wireName;

    RetryDecidedBy(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
