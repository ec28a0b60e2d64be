package dev.rebound.provider;

import dev.rebound.transcript.AssistantMessage;

/**
 * Streams one assistant reply from a model. One implementation per wire protocol ({@code api} in settings).
 *
 * <p>Contract: {@link #stream} blocks the calling thread until the reply is complete, failed or aborted, reports deltas
 * to the listener on that same thread as they arrive, and <b>never throws</b>: every failure (HTTP status, transport,
 * timeout, truncated stream, error object inside a stream, bad configuration) comes back as an {@link AssistantMessage}
 * with stop reason {@code error} and a useful error message, and an abort comes back with stop reason {@code aborted}.
 */
public interface ChatProvider {

    /**
     * Streams one reply.
     *
     * @param request what to send
     * @param listener receives text and thinking deltas while the reply streams
     * @param control lets another thread abort the call; an abort closes the connection at once
     * @return the final message, never null
     */
    AssistantMessage stream(ProviderRequest request, StreamListener listener, CallControl control);
}
