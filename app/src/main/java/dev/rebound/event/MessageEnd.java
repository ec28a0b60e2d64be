package dev.rebound.event;

import dev.rebound.transcript.ChatMessage;

/** A message is complete: the final user prompt, or the final assistant reply with its stop reason and error. */
public record MessageEnd(ChatMessage message) implements SessionEvent {
    @Override
    public String type() {
        return "message_end";
    }
}
