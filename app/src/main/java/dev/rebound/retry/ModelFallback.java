package dev.rebound.retry;

import dev.rebound.event.SessionEvent;
import dev.rebound.session.FallbackStatus;
import dev.rebound.transcript.AssistantMessage;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Step 7 of the retry chain and the rest of §6 of the retry policy: switching to the next model of a fallback chain,
 * confirming it, and going back to the primary.
 */
public interface ModelFallback {

    /**
     * Tries to switch the session to a fallback model.
     *
     * @param failed the failed message (its model)
     * @param classification why it failed (a refusal pins the fallback instead of cooling the model down)
     * @param hintMs the provider's requested wait, if any (the failed model's cooldown)
     * @return the events of the switch when another model is now current, else empty
     */
    Optional<List<SessionEvent>> apply(AssistantMessage failed, Classification classification, OptionalLong hintMs);

    /** A good reply arrived: {@code retry_fallback_succeeded} when it came on a fallback applied in this chain. */
    default List<SessionEvent> onSuccess() {
        return List.of();
    }

    /**
     * Before each prompt and each scheduled retry: under {@code cooldown-expiry}, once the primary's cooldown and any
     * refusal pin have expired, switch back and return the events; otherwise nothing. Within a turn, a primary that
     * already failed in that turn is not returned to, whatever its cooldown.
     *
     * @param beforePrompt true before a new prompt (a new turn), false before a scheduled retry
     */
    default List<SessionEvent> revertIfDue(boolean beforePrompt) {
        return List.of();
    }

    /** The user chose a model: forget the fallback. */
    default void modelChosen() {}

    /**
     * The active fallback, if any. Called from any thread without the engine's lock (by {@code get_state} and the
     * desktop while a decision may be running), so it must read a consistent snapshot and never wait.
     */
    default Optional<FallbackStatus> status() {
        return Optional.empty();
    }

    /** No fallback chain at all. */
    ModelFallback NONE = (failed, classification, hintMs) -> Optional.empty();
}
