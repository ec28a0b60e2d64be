package dev.rebound.api;

/**
 * A provider call of a turn ended and the session has decided what follows. The turn's last event is the
 * {@code agent_end} with {@code willRetry} false.
 *
 * @param session the chat
 * @param turnId the turn
 * @param willRetry true when a retry has been scheduled, so control has not returned to the user yet
 */
public record AgentEnd(SessionRef session, String turnId, boolean willRetry) implements SessionEvent {
    @Override
    public String type() {
        return "agent_end";
    }
}
