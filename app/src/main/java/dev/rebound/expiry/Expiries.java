package dev.rebound.expiry;

import java.util.Optional;

/**
 * Until-times per key: a credential blocked after a usage limit, a model in cooldown. {@link ExpiryStore} keeps them
 * in a file shared by every Rebound process; {@link MemoryExpiries} only for the life of this one.
 */
public interface Expiries {

    /**
     * Sets the key's until-time, unless it already has a later one.
     *
     * @throws IllegalArgumentException for a key or reason {@link ExpiryStore.Entry} refuses
     */
    void extend(String key, long untilEpochMs, String reason);

    /** The key's entry if it is in force now. */
    Optional<ExpiryStore.Entry> get(String key);
}
