package dev.rebound.retry;

import dev.rebound.api.AssistantMessage;
import java.util.OptionalLong;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The usage-limit policy of a session with a single credential: wait for the provider's hint, or else the default wait
 * of the reason (§5.1); billing or credit exhaustion and a missing entitlement give up at once, since waiting cannot
 * help (§5.5). The credential
 * pool of the next stage replaces it and switches credentials first.
 */
public final class WaitingUsageLimits implements UsageLimitPolicy {
    private final RandomGenerator random;

    public WaitingUsageLimits(RandomGenerator random) {
        this.random = random;
    }

    @Override
    public Decision onUsageLimit(AssistantMessage failed, UsageLimitReason reason, OptionalLong waitMs,
                                 Set<String> spentCredentials) {
        if (reason.neverWaits()) {
            return new Decision.GiveUp();
        }
        return new Decision.Wait(waitMs.orElseGet(() -> defaultWait(reason, random)));
    }

    /** The default wait of a reason when the provider gave no hint (§5.1 of the retry policy). */
    public static long defaultWait(UsageLimitReason reason, RandomGenerator random) {
        return switch (reason) {
            case PER_MINUTE -> 30_000;
            case MODEL_CAPACITY -> 45_000 + random.nextLong(30_001);
            case QUOTA, UNKNOWN -> 1_800_000;
            case BILLING, ENTITLEMENT -> 0;
        };
    }
}
