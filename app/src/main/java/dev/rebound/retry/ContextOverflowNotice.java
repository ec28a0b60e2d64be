package dev.rebound.retry;

import dev.rebound.event.Notice;
import dev.rebound.event.SessionEvent;
import dev.rebound.transcript.AssistantMessage;
import java.util.List;

/**
 * The overflow handler until compaction exists: a clear notice that the conversation no longer fits the model, and
 * what the user can do about it.
 */
public final class ContextOverflowNotice implements OverflowHandler {
    @Override
    public List<SessionEvent> onOverflow(AssistantMessage failed) {
        return List.of(new Notice(
                Notice.ERROR,
                "This conversation is too long for " + failed.provider() + "/"
                        + failed.model() + ": it no longer fits the model's context window, so Rebound did not retry. "
                        + "Start a new chat, or switch to a model with a larger context window, and send your message "
                        + "again."));
    }
}
