package dev.rebound.session;

import dev.rebound.transcript.ModelRef;

/**
 * A snapshot of a session for hosts (RPC {@code get_state}, the UI).
 *
 * @param sessionId the session's id
 * @param model the current model, or null when none is configured
 * @param turnRunning a prompt is being answered (streaming, or waiting for a retry)
 * @param streaming a provider call is in progress
 * @param messageCount messages in the runtime context
 */
public record SessionState(
        String sessionId, ModelRef model, boolean turnRunning, boolean streaming, int messageCount) {}
