package dev.rebound.event;

/**
 * A provider call of a turn begins. A turn that is retried has one {@code agent_start} per attempt.
 *
 * @param turnId the turn this call belongs to; the same across the attempts of one turn
 */
public record AgentStart(String turnId) implements SessionEvent {
    @Override
    public String type() {
        return "agent_start";
    }
}
