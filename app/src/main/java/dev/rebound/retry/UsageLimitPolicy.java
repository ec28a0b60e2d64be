package dev.rebound.retry;

import dev.rebound.event.SessionEvent;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Step 6 of the retry chain (§5 of the retry policy): what a usage limit does to the chain — switch credential, wait,
 * or give up.
 */
@FunctionalInterface
public interface UsageLimitPolicy {

    /**
     * @param failed the failed message (its provider and credential label); a {@code credentials_blocked} failure
     *     sent nothing, so it blocks nothing
     * @param reason why the limit was hit
     * @param waitMs the wait decided from the provider's hint (§4, escalated for a repeat, §5.1), if any; without it
     *     the reason's default applies
     * @param spentCredentials labels of the failed provider's credentials that already hit a usage limit in this
     *     chain: never switched back to within it
     */
    Decision onUsageLimit(
            AssistantMessage failed, UsageLimitReason reason, OptionalLong waitMs, Set<String> spentCredentials);

    /**
     * A usage limit that ends the chain before it is weighed (retries are off, or used up): nothing is switched or
     * waited for, but the credential that hit it is still blocked, for as long as the limit says, so that the next
     * prompt does not send it again.
     *
     * @param waitMs as for {@link #onUsageLimit}
     */
    default void blockOnly(AssistantMessage failed, UsageLimitReason reason, OptionalLong waitMs) {}

    /**
     * Whether the call sent nothing because every key of its provider was blocked already: it blocks nothing more and
     * is no repeat of a usage limit.
     */
    static boolean sentNothing(AssistantMessage failed) {
        return failed.failure() != null && failed.failure().kind() == FailureKind.CREDENTIALS_BLOCKED;
    }

    /** The outcome of a usage limit. */
    sealed interface Decision {
        /** Another credential is now in use: retry at once; the events (e.g. credential_switched) are emitted. */
        record Switched(List<SessionEvent> events) implements Decision {}

        /** Wait this long (then the chain's fail-fast and time-budget rules apply). */
        record Wait(long delayMs) implements Decision {}

        /** Nothing to switch to and waiting cannot help (billing, credit exhaustion, entitlement): terminal at once. */
        record GiveUp() implements Decision {}
    }
}
