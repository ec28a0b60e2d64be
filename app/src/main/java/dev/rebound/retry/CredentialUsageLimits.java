package dev.rebound.retry;

import dev.rebound.auth.Credential;
import dev.rebound.auth.CredentialPool;
import dev.rebound.auth.SessionCredentials;
import dev.rebound.event.CredentialSwitched;
import dev.rebound.transcript.AssistantMessage;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The usage-limit path of §5 with a credential pool: block the credential that hit the limit until the wait decided
 * (the provider's hint, escalated for a repeat, or the reason's default) and never longer, switch to a sibling that is
 * neither blocked nor spent in this chain at once, or else wait until the earliest sibling is free again
 * ({@code min(wait, earliest sibling unblock − now + 1 s)}). Billing or credit exhaustion switches but never waits. A
 * missing entitlement switches but neither waits nor blocks: the key still serves requests that do not need the
 * feature. A call that sent nothing (every key was blocked already) blocks nothing more.
 */
public final class CredentialUsageLimits implements UsageLimitPolicy {
    /** Margin after a sibling's block ends before trying it. */
    static final long UNBLOCK_MARGIN_MS = 1_000;

    private final CredentialPool pool;
    private final SessionCredentials session;
    private final Clock clock;
    private final RandomGenerator random;

    public CredentialUsageLimits(CredentialPool pool, SessionCredentials session, Clock clock, RandomGenerator random) {
        this.pool = pool;
        this.session = session;
        this.clock = clock;
        this.random = random;
    }

    @Override
    public Decision onUsageLimit(
            AssistantMessage failed, UsageLimitReason reason, OptionalLong waitMs, Set<String> spentCredentials) {
        long now = clock.millis();
        long wait = blockFor(reason, waitMs);
        String provider = failed.provider();
        String label = failed.credential();
        if (label == null) {
            return reason.neverWaits() ? new Decision.GiveUp() : new Decision.Wait(wait);
        }
        block(failed, reason, now + wait);
        Optional<Credential> next = session.switchFrom(provider, label, spentCredentials);
        if (next.isPresent()) {
            return new Decision.Switched(
                    List.of(new CredentialSwitched(provider, label, next.get().label())));
        }
        if (reason.neverWaits()) {
            return new Decision.GiveUp();
        }
        OptionalLong sibling = session.earliestSiblingUnblock(provider, label);
        long delay =
                sibling.isPresent() ? Math.min(wait, Math.max(0, sibling.getAsLong() - now) + UNBLOCK_MARGIN_MS) : wait;
        return new Decision.Wait(delay);
    }

    @Override
    public void blockOnly(AssistantMessage failed, UsageLimitReason reason, OptionalLong waitMs) {
        if (failed.credential() != null) {
            block(failed, reason, clock.millis() + blockFor(reason, waitMs));
        }
    }

    /** How long a usage limit blocks its key: the decided wait, else the reason's default. */
    private long blockFor(UsageLimitReason reason, OptionalLong waitMs) {
        return waitMs.orElseGet(
                () -> WaitingUsageLimits.defaultWait(reason.neverWaits() ? UsageLimitReason.QUOTA : reason, random));
    }

    /** Blocks the key that hit the limit, unless the call sent nothing or the limit is an entitlement gate. */
    private void block(AssistantMessage failed, UsageLimitReason reason, long untilEpochMs) {
        if (!UsageLimitPolicy.sentNothing(failed) && reason != UsageLimitReason.ENTITLEMENT) {
            // A billing block lasts like a quota block: the key stays useless for a while, for every session.
            pool.block(
                    failed.provider(),
                    failed.credential(),
                    untilEpochMs,
                    reason == UsageLimitReason.BILLING ? "billing" : "usage_limit");
        }
    }
}
