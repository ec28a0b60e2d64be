package dev.rebound.session;

import dev.rebound.transcript.AssistantMessage;

/**
 * What one provider call of a turn produced, handed to the {@link AttemptPolicy} at "agent end".
 *
 * @param turnId the turn
 * @param attempt 0 for the first call of the turn, then 1, 2... for each continuation
 * @param message the final assistant message of the call
 * @param userAborted true when the user (or shutdown) aborted the turn, so the stop must not be retried
 */
public record AttemptResult(String turnId, int attempt, AssistantMessage message, boolean userAborted) {}
