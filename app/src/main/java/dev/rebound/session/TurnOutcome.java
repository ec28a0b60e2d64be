package dev.rebound.session;

import dev.rebound.transcript.AssistantMessage;

/**
 * How a turn ended.
 *
 * @param turnId the turn
 * @param finalMessage the last assistant message of the turn
 */
public record TurnOutcome(String turnId, AssistantMessage finalMessage) {
    /** Whether the turn ended with a complete answer. */
    public boolean succeeded() {
        return finalMessage.stopReason() != dev.rebound.transcript.StopReason.ERROR
                && finalMessage.stopReason() != dev.rebound.transcript.StopReason.ABORTED;
    }
}
