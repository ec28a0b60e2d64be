package dev.rebound.retry;

import dev.rebound.transcript.ProviderFailure;
import java.util.List;
import java.util.Optional;

/**
 * Recognises an OpenAI Responses call that failed because the server no longer knows a replayed item or the previous
 * response: {@code Item with id 'rs_…' not found}, {@code previous_response_not_found}, an invalid, expired or stale
 * {@code previous_response_id}, or one barred by zero data retention ({@code store: false}). Only meaningful for the
 * {@code openai-responses} api; the caller checks that.
 */
final class StaleReplayRules {
    static final String RESPONSES_API = "openai-responses";

    private static final List<NamedPattern> PATTERNS = List.of(
            NamedPattern.of("item-not-found", "item with id '[^']*' not found"),
            NamedPattern.of("item-not-persisted", "items are not persisted when .?store.? is set to false"),
            NamedPattern.of("previous-response-not-found", "previous response with id '[^']*' not found"),
            NamedPattern.of(
                    "previous-response-zero-data-retention",
                    "previous response[^.]{0,80}(?:zero data retention|\\bZDR\\b|store.{0,3}false)"),
            NamedPattern.of(
                    "previous-response-invalid",
                    "(?:invalid|expired|stale|unknown)\\W{0,3}previous[ _]response"
                            + "|previous[ _]response(?:[ _]id)?\\W{0,3}(?:is |has )?"
                            + "(?:invalid|expired|stale|not found)"));

    private StaleReplayRules() {}

    /** The rule that recognised a stale replay ({@code stale-replay:…}), if any. */
    static Optional<String> match(ProviderFailure failure, String text) {
        if (failure != null && "previous_response_not_found".equals(failure.errorCode())) {
            return Optional.of("stale-replay:code:previous_response_not_found");
        }
        return NamedPattern.firstIn(PATTERNS, text).map(name -> "stale-replay:" + name);
    }
}
