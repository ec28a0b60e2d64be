package dev.rebound.api;

/**
 * A prompt the user sent.
 *
 * @param id unique within the session
 * @param text what the user wrote
 * @param timestamp epoch milliseconds when it was sent
 */
public record UserMessage(String id, String text, long timestamp) implements ChatMessage {
    @Override
    public String role() {
        return "user";
    }
}
