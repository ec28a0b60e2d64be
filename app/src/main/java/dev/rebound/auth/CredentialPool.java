package dev.rebound.auth;

import dev.rebound.expiry.Expiries;
import dev.rebound.expiry.ExpiryStore;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The credentials of every provider and their usage-limit blocks (§5 of the retry policy). One per app: blocks are
 * shared by every session and, through the {@link ExpiryStore} under {@code state/}, survive a restart. Only labels and
 * times are stored, never keys. The blocks of built-in credentials (the offline simulator's fake keys) are kept apart,
 * in memory only: a scripted usage limit must not make the next run wait.
 */
public final class CredentialPool {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CredentialPool.class);
    private final CredentialStore store;
    private final ExpiryStore blocks;
    private final Supplier<List<Credential>> builtIn;
    private final Expiries builtInBlocks;

    /** A pool of the credentials in credentials.json only. */
    public CredentialPool(CredentialStore store, ExpiryStore blocks) {
        this(store, blocks, List::of, blocks);
    }

    /**
     * A pool that also knows built-in credentials (the offline simulator's fake keys): the built-in credentials in
     * effect now serve their provider when credentials.json has none for it. They are never written to the file, and
     * their blocks go to {@code builtInBlocks}.
     *
     * @param builtIn the built-in credentials in effect now (none while the built-in provider is not in use)
     * @param builtInBlocks where the blocks of built-in credentials are kept
     */
    public CredentialPool(
            CredentialStore store, ExpiryStore blocks, Supplier<List<Credential>> builtIn, Expiries builtInBlocks) {
        this.store = store;
        this.blocks = blocks;
        this.builtIn = builtIn;
        this.builtInBlocks = builtInBlocks;
    }

    /** Every configured credential of every provider, and the built-in ones. */
    public List<Credential> all() {
        List<Credential> all = new java.util.ArrayList<>(store.all());
        all.addAll(builtIn.get());
        return all;
    }

    /** The usable credentials of a provider, in file order; else its built-in ones. */
    public List<Credential> credentials(String provider) {
        List<Credential> configured = store.forProvider(provider);
        if (!configured.isEmpty()) {
            return configured;
        }
        return builtIn.get().stream().filter(c -> c.provider().equals(provider)).toList();
    }

    /**
     * Blocks a credential until {@code untilEpochMs}, or keeps its block when that already ends later (another
     * session, or another Rebound process, may have blocked it for longer).
     */
    public void block(String provider, String label, long untilEpochMs, String reason) {
        try {
            blocksOf(provider, label).extend(key(provider, label), untilEpochMs, reason);
        } catch (IllegalArgumentException e) {
            LOG.warn("Could not record the block of credential '{}' of {}: {}", label, provider, e.getMessage());
        }
    }

    /** Whether the provider has credentials and every one of them is blocked now. */
    public boolean allBlocked(String provider) {
        List<Credential> all = credentials(provider);
        return !all.isEmpty() && all.stream().allMatch(c -> isBlocked(provider, c.label()));
    }

    /** Why the credential is blocked ({@code usage_limit}, {@code billing}), if it is. */
    public Optional<String> blockReason(String provider, String label) {
        return blocksOf(provider, label).get(key(provider, label)).map(ExpiryStore.Entry::reason);
    }

    /** When the credential's block ends, if it is blocked now. */
    public OptionalLong blockedUntil(String provider, String label) {
        return blocksOf(provider, label)
                .get(key(provider, label))
                .map(e -> OptionalLong.of(e.until()))
                .orElse(OptionalLong.empty());
    }

    public boolean isBlocked(String provider, String label) {
        return blockedUntil(provider, label).isPresent();
    }

    private Expiries blocksOf(String provider, String label) {
        boolean isBuiltIn = store.forProvider(provider).isEmpty()
                && builtIn.get().stream()
                        .anyMatch(
                                c -> c.provider().equals(provider) && c.label().equals(label));
        return isBuiltIn ? builtInBlocks : blocks;
    }

    private static String key(String provider, String label) {
        return provider + "/" + label;
    }
}
