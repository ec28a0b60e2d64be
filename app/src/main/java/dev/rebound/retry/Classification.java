package dev.rebound.retry;

import dev.rebound.event.ErrorKind;
import java.util.Objects;

/**
 * The classifier's verdict on one finished assistant message (§2 of the retry policy).
 *
 * @param verdict what to do with it
 * @param kind the retryable kind, for {@link Verdict#RETRY} only (null otherwise)
 * @param usageLimitReason for {@link ErrorKind#USAGE_LIMIT} only (null otherwise)
 * @param rule a short, stable name of the rule that decided (for logs, tests and the chain record), e.g.
 *     {@code status:529}, {@code type:overloaded_error}, {@code x-should-retry:false}, {@code text:socket hang up},
 *     {@code observable-output}
 * @param advice what a person can do when the failure ends the turn, or null when the error says enough
 */
public record Classification(
        Verdict verdict, ErrorKind kind, UsageLimitReason usageLimitReason, String rule, Advice advice) {

    /** What the session does with the message. */
    public enum Verdict {
        /** Not a failure at all (a complete reply). */
        NOT_AN_ERROR,
        /** Retry it (subject to the chain's rules). */
        RETRY,
        /** The conversation is too long for the model: the overflow handler, never a retry. */
        CONTEXT_OVERFLOW,
        /** Give up at once: auth, bad request, unknown model, content policy, user cancellation, shown output... */
        TERMINAL
    }

    public Classification {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(rule, "rule");
        if ((verdict == Verdict.RETRY) != (kind != null)) {
            throw new IllegalArgumentException("a kind is given exactly for RETRY verdicts");
        }
        if ((kind == ErrorKind.USAGE_LIMIT) != (usageLimitReason != null)) {
            throw new IllegalArgumentException("a usage-limit reason is given exactly for USAGE_LIMIT");
        }
    }

    /** A verdict without advice. */
    public Classification(Verdict verdict, ErrorKind kind, UsageLimitReason usageLimitReason, String rule) {
        this(verdict, kind, usageLimitReason, rule, null);
    }

    public static Classification retry(ErrorKind kind, String rule) {
        return new Classification(Verdict.RETRY, kind, null, rule);
    }

    public static Classification usageLimit(UsageLimitReason reason, String rule) {
        return new Classification(
                Verdict.RETRY,
                ErrorKind.USAGE_LIMIT,
                reason,
                rule,
                reason == UsageLimitReason.ENTITLEMENT ? Advice.NOT_ENTITLED : null);
    }

    public static Classification terminal(String rule) {
        return new Classification(Verdict.TERMINAL, null, null, rule);
    }

    /** Terminal, with what a person can do about it. */
    public static Classification terminal(String rule, Advice advice) {
        return new Classification(Verdict.TERMINAL, null, null, rule, advice);
    }

    public static Classification overflow(String rule) {
        return new Classification(Verdict.CONTEXT_OVERFLOW, null, null, rule);
    }

    public static Classification notAnError() {
        return new Classification(Verdict.NOT_AN_ERROR, null, null, "complete");
    }

    public boolean isRetry() {
        return verdict == Verdict.RETRY;
    }
}
