package dev.rebound.session;

import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ModelRef;
import java.util.Optional;

/**
 * One request made for a model role other than the chat itself ({@code title}, ...), through the same retry engine
 * as a chat and the fallback chain of that role (§6 of the retry policy: a chain keyed by the role, else
 * {@code default}). The implementation lives with the app's services, which own the credential pool and cooldowns.
 */
@FunctionalInterface
public interface RoleCalls {
    /**
     * @param role the role the request is made for; its name is the fallback chain key after the model's own keys
     * @param model the role's model
     * @param prompt the one user message
     * @return the final reply after every retry and fallback (a success, or the failure the chain ended on); empty when
     *     the request could not be made at all (the app is closing)
     */
    Optional<AssistantMessage> call(String role, ModelRef model, String prompt);
}
