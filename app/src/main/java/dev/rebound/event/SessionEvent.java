package dev.rebound.event;

/**
 * Something that happened in a chat session, in the order it happened. Each record's {@link #type()} is the
 * {@code type} field of its JSON form in RPC mode; its components are the other fields.
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

    /** The wire name of the event ({@code agent_start}...). */
    String type();
}
