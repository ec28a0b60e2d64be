package dev.rebound.retry;

import dev.rebound.event.RetryEndReason;
import java.util.Optional;

/**
 * What people are told when a retry chain ends without a reply — the same words live and in a reopened chat. A chain
 * that ran out of retries says {@code Retry failed after N attempts: <error>}, as the retry policy prescribes; a stop
 * before any retry says what happened instead of "after 0 attempts" ({@code Not retried: the provider asked for a
 * 24 h wait, more than the 5 min allowed (Settings → Retry).}).
 */
public final class ChainEndWording {
    /** Where the retry limits are changed, named in the words. */
    public static final String SETTINGS = "Settings → Retry";

    private ChainEndWording() {}

    /**
     * @param reason why the chain ended (not {@code succeeded}, {@code cancelled} or {@code aborted}, which have their
     *     own words)
     * @param attempts the retries actually made
     * @param finalError the chain's final error
     */
    public static String describe(RetryEndReason reason, int attempts, String finalError) {
        String lead = attempts == 0 ? "Not retried: " : "Gave up after " + retries(attempts) + ": ";
        return switch (reason) {
            case MAX_DELAY_EXCEEDED ->
                MaxDelayExceeded.parse(finalError)
                        .map(stop -> lead + why(stop) + ", more than the " + Durations.describe(stop.capMs())
                                + " allowed (" + SETTINGS + "). " + stop.originalError())
                        .orElseGet(() -> failedAfter(attempts, finalError));
            case ELAPSED_BUDGET_EXCEEDED ->
                lead + (attempts == 0 ? "the wait would run past" : "it ran out of")
                        + " the time allowed for one chain of retries (" + SETTINGS + "). " + finalError;
            default -> attempts == 0 ? finalError : failedAfter(attempts, finalError);
        };
    }

    /** {@code Retry failed after N attempts: <error>} (§8 of the retry policy). */
    private static String failedAfter(int attempts, String finalError) {
        return "Retry failed after " + attempts + (attempts == 1 ? " attempt: " : " attempts: ") + finalError;
    }

    private static String why(MaxDelayExceeded stop) {
        String wait = Durations.describe(stop.waitMs());
        return switch (stop.cause()) {
            case PROVIDER -> "the provider asked for a " + wait + " wait";
            case KEYS_BLOCKED -> "every API key is blocked for another " + wait;
            case REBOUND ->
                Optional.ofNullable(stop.hintMs())
                        .map(hint -> "the limit came back after the " + Durations.describe(hint)
                                + " the provider named, " + "so the next wait would be " + wait)
                        .orElse("this " + stop.kind().replace('_', ' ') + " would need a " + wait
                                + " wait (the provider named none)");
        };
    }

    private static String retries(int attempts) {
        return attempts + (attempts == 1 ? " retry" : " retries");
    }
}
