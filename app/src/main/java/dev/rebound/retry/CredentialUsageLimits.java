package dev.rebound.retry;

import dev.rebound.api.AssistantMessage;
import dev.rebound.api.CredentialSwitched;
import dev.rebound.auth.Credential;
import dev.rebound.auth.CredentialPool;
import dev.rebound.auth.SessionCredentials;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.random.RandomGenerator;

/**
 * The usage-limit path of §5 with a credential pool: block the credential that hit the limit (for the provider's hint,
 * or the reason's default), switch to an unblocked sibling at once, or else wait until the earliest sibling is free
 * again ({@code min(hint, earliest sibling unblock − now + 1 s)}). Billing or credit exhaustion switches but never
 * waits. Every usage limit blocks the credential it hit, so the same limit can never be hit in a loop.
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
    public Decision onUsageLimit(AssistantMessage failed, UsageLimitReason reason, OptionalLong hintMs) {
        long now = clock.millis();
        boolean billing = reason == UsageLimitReason.BILLING;
        long wait = hintMs.orElseGet(() -> WaitingUsageLimits.defaultWait(
                billing ? UsageLimitReason.QUOTA : reason, random));
        String provider = failed.provider();
        String label = failed.credential();
        if (label == null) {
            return billing ? new Decision.GiveUp() : new Decision.Wait(wait);
        }
        // A billing block lasts like a quota block: the key stays useless for a while, for every session.
        pool.block(provider, label, now + wait, billing ? "billing" : "usage_limit");
        Optional<Credential> next = session.switchFrom(provider, label);
        if (next.isPresent()) {
            return new Decision.Switched(List.of(new CredentialSwitched(provider, label, next.get().label())));
        }
        if (billing) {
            return new Decision.GiveUp();
        }
        OptionalLong sibling = session.earliestSiblingUnblock(provider, label);
        long delay = sibling.isPresent() ? Math.min(wait, Math.max(0, sibling.getAsLong() - now) + UNBLOCK_MARGIN_MS)
                : wait;
        return new Decision.Wait(delay);
    }
}
