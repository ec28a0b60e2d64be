package dev.rebound.transcript;

/** A prompt the user sent. */
public record UserMessage(String id, String text, long timestamp) implements ChatMessage {
    @Override
    public String role() {
        return "user";
    }
}
