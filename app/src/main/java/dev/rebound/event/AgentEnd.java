package dev.rebound.event;

/**
 * A provider call of a turn ended and the session has decided what follows.
 *
 * @param turnId the turn
 * @param willRetry true when a retry has been scheduled, so control has not returned to the user yet
 */
public record AgentEnd(String turnId, boolean willRetry) implements SessionEvent {
    @Override
    public String type() {
        return "agent_end";
    }
}
