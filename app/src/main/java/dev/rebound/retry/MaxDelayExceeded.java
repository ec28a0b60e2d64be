package dev.rebound.retry;

import dev.rebound.transcript.AssistantMessage;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fail-fast stop of §3 step 9: a wait longer than {@code retry.maxDelayMs}. {@link #message()} is the final error
 * the retry policy prescribes ({@code Provider requested <N>ms wait, exceeds retry.maxDelayMs (<M>ms). Original error:
 * <error>}, or Rebound's own variants when the wait is not the provider's hint), and {@link #parse} reads such a
 * message back, so that the words people see (see {@link ChainEndWording}) are made from the same facts.
 *
 * @param waitMs the wait that would have been needed
 * @param capMs {@code retry.maxDelayMs}
 * @param cause whose wait it was
 * @param kind the failure's kind ({@code usage_limit}...), for Rebound's own waits; null for the provider's
 * @param hintMs the provider's hint when the wait is Rebound's own but the provider named one, else null
 * @param originalError the error of the failed call, unchanged
 */
public record MaxDelayExceeded(long waitMs, long capMs, Cause cause, String kind, Long hintMs, String originalError) {

    /**
     * The stop of a retry whose wait exceeds {@code retry.maxDelayMs}: whose wait it was (every key blocked, exactly the
     * provider's hint, or Rebound's own), with the hint when Rebound waited longer than it.
     */
    static MaxDelayExceeded of(long waitMs, long capMs, OptionalLong hint, AssistantMessage failed, Object kind) {
        Cause cause = UsageLimitPolicy.sentNothing(failed)
                ? Cause.KEYS_BLOCKED
                : hint.isPresent() && hint.getAsLong() == waitMs ? Cause.PROVIDER : Cause.REBOUND;
        Long hinted = cause == Cause.REBOUND && hint.isPresent() ? hint.getAsLong() : null;
        return new MaxDelayExceeded(waitMs, capMs, cause, String.valueOf(kind), hinted, failed.errorMessage());
    }

    /** Whose wait exceeded the cap. */
    public enum Cause {
        /** The provider asked for exactly this wait. */
        PROVIDER,
        /** Rebound's own wait: a usage limit's default or an escalated hint (the provider named less, or nothing). */
        REBOUND,
        /** Every API key of the provider is blocked until then. */
        KEYS_BLOCKED
    }

    private static final Pattern PROVIDER = Pattern.compile(
            "^Provider requested (\\d+)ms wait, exceeds retry\\.maxDelayMs \\((\\d+)ms\\)\\. Original error: (.*)$",
            Pattern.DOTALL);
    private static final Pattern REBOUND = Pattern.compile(
            "^Rebound would wait (\\d+)ms for this (\\S+) \\((?:the "
                    + "provider asked for (\\d+)ms|the provider named no wait|(until an API key is free again))\\), exceeds "
                    + "retry\\.maxDelayMs \\((\\d+)ms\\)\\. Original error: (.*)$",
            Pattern.DOTALL);

    /** The final error of the chain, worded as the retry policy prescribes. */
    public String message() {
        String who = switch (cause) {
            case PROVIDER -> "Provider requested " + waitMs + "ms wait";
            case KEYS_BLOCKED ->
                "Rebound would wait " + waitMs + "ms for this " + kind + " (until an API key is free again)";
            case REBOUND ->
                "Rebound would wait " + waitMs + "ms for this " + kind + " ("
                        + (hintMs != null ? "the provider asked for " + hintMs + "ms" : "the provider named no wait")
                        + ")";
        };
        return who + ", exceeds retry.maxDelayMs (" + capMs + "ms). Original error: " + originalError;
    }

    /** The stop a final error reports, if it is one of {@link #message()}'s forms. */
    public static Optional<MaxDelayExceeded> parse(String finalError) {
        if (finalError == null) {
            return Optional.empty();
        }
        Matcher p = PROVIDER.matcher(finalError);
        if (p.matches()) {
            return Optional.of(new MaxDelayExceeded(
                    Long.parseLong(p.group(1)), Long.parseLong(p.group(2)), Cause.PROVIDER, null, null, p.group(3)));
        }
        Matcher r = REBOUND.matcher(finalError);
        if (r.matches()) {
            Cause cause = r.group(4) != null ? Cause.KEYS_BLOCKED : Cause.REBOUND;
            Long hint = r.group(3) == null ? null : Long.parseLong(r.group(3));
            return Optional.of(new MaxDelayExceeded(
                    Long.parseLong(r.group(1)), Long.parseLong(r.group(5)), cause, r.group(2), hint, r.group(6)));
        }
        return Optional.empty();
    }
}
