package dev.rebound.retry;

import dev.rebound.event.Notice;
import dev.rebound.transcript.AssistantMessage;
import java.util.List;
import java.util.Map;

/**
 * The notices that tell a person what to do about a failure no wait can fix ({@link Advice}), in the manner of the
 * context-overflow notice: what happened, that Rebound did not retry and why, and what to do next.
 */
final class AdviceNotices {
    /** What the rule that recognised a model server's failure says happened. */
    private static final Map<String, String> MODEL_FAILURES = Map.of(
            "text:model-memory", "there is not enough memory for it",
            "text:model-runner-died", "its runner process stopped",
            "text:model-load-failed", "it could not load the model",
            "text:model-architecture", "it does not support the model's architecture",
            "text:model-file", "the model file is missing or damaged");

    private AdviceNotices() {}

    /** The notice for a verdict that carries advice; none otherwise. */
    static List<Notice> of(Classification verdict, AssistantMessage failed) {
        if (verdict.advice() == null) {
            return List.of();
        }
        String model = failed.provider() + "/" + failed.model();
        String text = switch (verdict.advice()) {
            case REQUEST_EXCEEDS_RATE_LIMIT ->
                "This request alone is larger than the per-minute token limit of "
                        + model
                        + ", so waiting cannot help and Rebound did not retry. Shorten the conversation (start a "
                        + "new chat, or leave out long pasted text), or pick a model or a tier with a higher limit, and "
                        + "send your message again.";
            case MODEL_CANNOT_LOAD ->
                "The server of " + model + " cannot run the model ("
                        + MODEL_FAILURES.getOrDefault(verdict.rule(), "it failed while loading it")
                        + "), so Rebound did "
                        + "not retry: it would fail the same way. Free memory (close other models or apps), pick a smaller "
                        + "or more quantised model, or check the model file and the server's log, then send your message "
                        + "again.";
            case NOT_ENTITLED ->
                "The plan or API key used for " + model + " does not include what this request "
                        + "needs, so waiting cannot help and Rebound did not retry. Use another key or model (Settings → "
                        + "Providers, Fallback chains), or change the plan, then send your message again.";
        };
        return List.of(new Notice(Notice.ERROR, text));
    }
}
