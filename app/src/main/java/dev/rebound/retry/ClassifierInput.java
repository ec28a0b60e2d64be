package dev.rebound.retry;

import dev.rebound.transcript.AssistantMessage;
import java.util.Objects;

/**
 * What the classifier looks at.
 *
 * @param message the finished assistant message (its stop reason, error message, stop details, structured failure
 *     facts and content)
 * @param api the wire protocol of the call ({@code openai-completions}, {@code openai-responses}...); stale replays
 *     exist only for {@code openai-responses}
 * @param abortRequested true while a user abort, session disposal or edit-guard abort is under way, so an aborted stop
 *     is never a reasonless abort
 */
public record ClassifierInput(AssistantMessage message, String api, boolean abortRequested) {
    public ClassifierInput {
        Objects.requireNonNull(message, "message");
    }
}
