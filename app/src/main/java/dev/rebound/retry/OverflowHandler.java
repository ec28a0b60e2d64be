package dev.rebound.retry;

import dev.rebound.event.SessionEvent;
import dev.rebound.transcript.AssistantMessage;
import java.util.List;

/**
 * Receives a context overflow (§1 of the retry policy): it is never retried. Compaction may plug in here later.
 */
@FunctionalInterface
public interface OverflowHandler {
    /** The events that tell the user what happened and what to do. */
    List<SessionEvent> onOverflow(AssistantMessage failed);
}
