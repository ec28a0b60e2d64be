package dev.rebound.retry;

import dev.rebound.api.AssistantMessage;
import dev.rebound.api.SessionEvent;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Step 7 of the retry chain (§6 of the retry policy): switch to the next model of the fallback chain.
 */
@FunctionalInterface
public interface ModelFallback {

    /**
     * Tries to switch the session to a fallback model.
     *
     * @param failed the failed message (its model)
     * @param classification why it failed
     * @param hintMs the provider's requested wait, if any (the failed model's cooldown)
     * @return the events of the switch (retry_fallback_applied...) when a fallback model is now current, else empty
     */
    Optional<List<SessionEvent>> apply(AssistantMessage failed, Classification classification, OptionalLong hintMs);

    /** No fallback chain: every call answers empty. */
    ModelFallback NONE = (failed, classification, hint) -> Optional.empty();
}
