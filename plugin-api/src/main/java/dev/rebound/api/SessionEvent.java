package dev.rebound.api;

/**
 * Something that happened in a chat session, in the order it happened. Every event names its {@link #session()}, and
 * its {@link #turnId()} when it happened during a turn (one prompt and the provider calls it took, retries included).
 * Each record's {@link #type()} is the {@code type} field of its JSON form in RPC mode.
 *
 * <p>The hierarchy is sealed, but later versions of the app add event types: a {@code switch} over it needs a
 * {@code default} branch (see {@link SessionEventListener}).
 */
public sealed interface SessionEvent
        permits AgentStart,
                MessageStart,
                MessageUpdate,
                MessageEnd,
                AgentEnd,
                ModelChanged,
                Notice,
                AutoRetryStart,
                AutoRetryEnd,
                RetryChainEnd,
                CredentialSwitched,
                RetryFallbackApplied,
                RetryFallbackSucceeded,
                RetryFallbackReverted {

    /** The chat this event belongs to; never null. */
    SessionRef session();

    /**
     * The turn this event belongs to, the same across all the attempts of one turn; null for an event outside a turn
     * (a model chosen or a notice given between turns).
     */
    String turnId();

    /** The wire name of the event ({@code agent_start}...). */
    String type();
}
