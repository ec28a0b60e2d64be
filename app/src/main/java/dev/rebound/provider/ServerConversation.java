package dev.rebound.provider;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a provider's server keeps of one chat: the id under which it stored each reply (the Responses API's
 * {@code resp_…}), so that the next turn can name it as {@code previous_response_id} and send only what is new.
 *
 * <p>Owned by a session, written by the provider that received a reply, and reset by the session when the server no
 * longer knows what it was told (a stale replay, §3 step 5 of the retry policy): the next call then sends the whole
 * conversation. Lost with the process: a reopened chat's first turn sends everything. Thread-safe.
 */
public final class ServerConversation {
    /** Resets after which a provider's server is not trusted to keep replies for this chat any more. */
    static final int RESETS_BEFORE_GIVING_UP = 2;

    private final Map<String, Stored> byMessage = new ConcurrentHashMap<>();
    private final Map<String, Integer> resets = new ConcurrentHashMap<>();

    private record Stored(String providerKey, String responseId) {}

    /**
     * Records that the server of {@code providerKey} stored the reply {@code messageId} as {@code responseId}; ignored
     * once that server forgot twice (a zero-data-retention organisation, a proxy that drops state): then this chat
     * sends the whole conversation to it every time.
     */
    public void remember(String messageId, String providerKey, String responseId) {
        if (resets.getOrDefault(providerKey, 0) < RESETS_BEFORE_GIVING_UP) {
            byMessage.put(messageId, new Stored(providerKey, responseId));
        }
    }

    /** The id the server of {@code providerKey} stored reply {@code messageId} under, if it is known and not reset. */
    public Optional<String> responseIdOf(String messageId, String providerKey) {
        Stored stored = byMessage.get(messageId);
        return stored != null && stored.providerKey().equals(providerKey)
                ? Optional.of(stored.responseId())
                : Optional.empty();
    }

    /** Forgets every id (a cleared conversation). */
    public void clear() {
        byMessage.clear();
        resets.clear();
    }

    /** Forgets every id the server of {@code providerKey} gave: the next call replays the whole conversation. */
    public void forget(String providerKey) {
        byMessage.values().removeIf(stored -> stored.providerKey().equals(providerKey));
        resets.merge(providerKey, 1, Integer::sum);
    }
}
