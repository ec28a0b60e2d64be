package dev.rebound.retry;

import dev.rebound.transcript.AssistantMessage;
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
    private static final long PER_MINUTE_MS = 30_000;
    private static final long CAPACITY_MIN_MS = 45_000;
    private static final long CAPACITY_SPREAD_MS = 30_000;
    private static final long QUOTA_MS = 1_800_000;
    private final RandomGenerator random;

    public WaitingUsageLimits(RandomGenerator random) {
        this.random = random;
    }

    @Override
    public Decision onUsageLimit(
            AssistantMessage failed, UsageLimitReason reason, OptionalLong waitMs, Set<String> spentCredentials) {
        if (reason.neverWaits()) {
            return new Decision.GiveUp();
        }
        return new Decision.Wait(waitMs.orElseGet(() -> defaultWait(reason, random)));
    }

    /**
     * The longest default wait of a reason: the ceiling of the escalation of a repeated hint (§5.1), fixed where the
     * default itself is drawn at random (model capacity: 75 s).
     */
    public static long longestDefaultWait(UsageLimitReason reason) {
        return switch (reason) {
            case PER_MINUTE -> PER_MINUTE_MS;
            case MODEL_CAPACITY -> CAPACITY_MIN_MS + CAPACITY_SPREAD_MS;
            case QUOTA, UNKNOWN -> QUOTA_MS;
            case BILLING, ENTITLEMENT -> 0;
        };
    }

    /** The default wait of a reason when the provider gave no hint (§5.1 of the retry policy). */
    public static long defaultWait(UsageLimitReason reason, RandomGenerator random) {
        return switch (reason) {
            case PER_MINUTE -> PER_MINUTE_MS;
            case MODEL_CAPACITY -> CAPACITY_MIN_MS + random.nextLong(CAPACITY_SPREAD_MS + 1);
            case QUOTA, UNKNOWN -> QUOTA_MS;
            case BILLING, ENTITLEMENT -> 0;
        };
    }
}
