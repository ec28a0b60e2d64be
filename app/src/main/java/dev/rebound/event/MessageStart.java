package dev.rebound.event;

import dev.rebound.transcript.ChatMessage;

/**
 * A message begins: a user prompt (already complete) or an assistant reply about to stream (empty content, no stop
 * reason yet).
 */
public record MessageStart(ChatMessage message) implements SessionEvent {
    @Override
    public String type() {
        return "message_start";
    }
}
