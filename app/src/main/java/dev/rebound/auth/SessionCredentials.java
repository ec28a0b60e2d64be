package dev.rebound.auth;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The credential a session uses per provider. It sticks to one (prompt caches stay warm) until that one is blocked;
 * then the first unblocked one in file order takes over; when all are blocked, the one whose block ends first.
 */
public final class SessionCredentials implements CredentialSource {
    private final CredentialPool pool;
    private final Map<String, String> chosen = new ConcurrentHashMap<>();

    @Override
    public List<Credential> allCredentials() {
        return pool.all();
    }

    public SessionCredentials(CredentialPool pool) {
        this.pool = pool;
    }

    @Override
    public Optional<Credential> credentialFor(String provider) {
        List<Credential> all = pool.credentials(provider);
        if (all.isEmpty()) {
            return Optional.empty();
        }
        String label = chosen.get(provider);
        Optional<Credential> sticky =
                all.stream().filter(c -> c.label().equals(label)).findFirst();
        if (sticky.isPresent() && !pool.isBlocked(provider, label)) {
            return sticky;
        }
        Credential pick = all.stream()
                .filter(c -> !pool.isBlocked(provider, c.label()))
                .findFirst()
                .orElseGet(() -> soonestUnblocked(provider, all));
        chosen.put(provider, pick.label());
        return Optional.of(pick);
    }

    @Override
    public Optional<CredentialsBlocked> blocked(String provider) {
        List<Credential> all = pool.credentials(provider);
        if (all.isEmpty() || !pool.allBlocked(provider)) {
            return Optional.empty();
        }
        Credential soonest = soonestUnblocked(provider, all);
        boolean billingOnly = true;
        StringBuilder detail = new StringBuilder();
        for (Credential c : all) {
            long until = pool.blockedUntil(provider, c.label()).orElse(0);
            String reason = pool.blockReason(provider, c.label()).orElse("usage_limit");
            billingOnly &= "billing".equals(reason);
            if (!detail.isEmpty()) {
                detail.append(", ");
            }
            detail.append('\'')
                    .append(c.label())
                    .append("' until ")
                    .append(java.time.Instant.ofEpochMilli(until))
                    .append(" (")
                    .append(reason.replace('_', ' '))
                    .append(')');
        }
        return Optional.of(new CredentialsBlocked(
                provider,
                soonest.label(),
                pool.blockedUntil(provider, soonest.label()).orElse(0),
                billingOnly,
                detail.toString()));
    }

    /**
     * Moves the session off a credential that hit a usage limit to an unblocked sibling, if there is one.
     *
     * @param spent labels not to switch to either (they hit a usage limit earlier in the same retry chain)
     * @return the credential now in use
     */
    public Optional<Credential> switchFrom(String provider, String limitedLabel, Set<String> spent) {
        Optional<Credential> next = pool.credentials(provider).stream()
                .filter(c -> !c.label().equals(limitedLabel)
                        && !spent.contains(c.label())
                        && !pool.isBlocked(provider, c.label()))
                .findFirst();
        next.ifPresent(c -> chosen.put(provider, c.label()));
        return next;
    }

    /** When the first of the other credentials of the provider is unblocked again; empty when there are none. */
    public OptionalLong earliestSiblingUnblock(String provider, String label) {
        return pool.credentials(provider).stream()
                .filter(c -> !c.label().equals(label))
                .mapToLong(c -> pool.blockedUntil(provider, c.label()).orElse(0))
                .min();
    }

    private Credential soonestUnblocked(String provider, List<Credential> all) {
        Credential best = all.getFirst();
        long bestUntil = Long.MAX_VALUE;
        for (Credential c : all) {
            long until = pool.blockedUntil(provider, c.label()).orElse(0);
            if (until < bestUntil) {
                best = c;
                bestUntil = until;
            }
        }
        return best;
    }
}
