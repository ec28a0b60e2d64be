package dev.rebound.retry;

import dev.rebound.api.AssistantMessage;
import dev.rebound.api.SessionEvent;
import java.util.List;
import java.util.OptionalLong;

/**
 * Step 6 of the retry chain (§5 of the retry policy): what a usage limit does to the chain — switch credential, wait,
 * or give up.
 */
@FunctionalInterface
public interface UsageLimitPolicy {

    /**
     * @param failed the failed message (its provider and credential label)
     * @param reason why the limit was hit
     * @param hintMs the provider's requested wait, if any (§4)
     */
    Decision onUsageLimit(AssistantMessage failed, UsageLimitReason reason, OptionalLong hintMs);

    /** The outcome of a usage limit. */
    sealed interface Decision {
        /** Another credential is now in use: retry at once; the events (e.g. credential_switched) are emitted. */
        record Switched(List<SessionEvent> events) implements Decision {
        }

        /** Wait this long (then the chain's fail-fast and time-budget rules apply). */
        record Wait(long delayMs) implements Decision {
        }

        /** Nothing to switch to and waiting cannot help (billing or credit exhaustion): terminal at once. */
        record GiveUp() implements Decision {
        }
    }
}
