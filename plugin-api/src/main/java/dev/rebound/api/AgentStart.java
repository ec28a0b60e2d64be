package dev.rebound.api;

/**
 * A provider call of a turn begins. A turn that is retried has one {@code agent_start} per attempt.
 *
 * @param session the chat
 * @param turnId the turn
 */
public record AgentStart(SessionRef session, String turnId) implements SessionEvent {
    @Override
    public String type() {
        return "agent_start";
    }
}
