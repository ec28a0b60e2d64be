package dev.rebound.retry;

import dev.rebound.transcript.ProviderFailure;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Recognises a conversation that no longer fits the model's context window. It is checked before anything retryable,
 * so an overflow always reaches the overflow handler (compaction) and is never retried.
 *
 * <p>A throughput limit is not an overflow even when it counts tokens: a 429, or text about waiting, throttling or
 * per-minute/per-day token budgets ("Too many tokens, please wait before trying again", "tokens per minute (TPM)") is
 * left to the rate-limit rules.
 */
final class OverflowRules {
    private static final Set<String> OVERFLOW_CODES =
            Set.of("context_length_exceeded", "exceed_context_size_error", "model_context_window_exceeded");

    private static final List<NamedPattern> PATTERNS = List.of(
            NamedPattern.of("prompt-too-long", "prompt is too long"),
            NamedPattern.of("input-too-long", "input is too long for (?:the )?requested model"),
            NamedPattern.of("maximum-context-length", "maximum context length"),
            NamedPattern.of("input-token-count", "input token count.{0,40}exceeds? the maximum"),
            NamedPattern.of(
                    "exceeds-context", "exceed(?:s|ed)?\\b[^.]{0,40}?\\bcontext[ _](?:window|limit|length|size)"),
            NamedPattern.of("context-exceeded", "context[ _](?:window|length|size)[ _](?:has been |was |is )?exceeded"),
            NamedPattern.of("reduce-message-length", "reduce the length of the messages"),
            NamedPattern.of("too-many-tokens", "too many tokens"),
            NamedPattern.of("context-window-exceeded-error", "ContextWindowExceeded"),
            NamedPattern.of(
                    "longer-than-context",
                    "(?:greater|larger|longer|more) than (?:the |its )?(?:model'?s? )?context (?:length|window|size)"
                            + "|n_keep\\b.{0,20}n_ctx"),
            NamedPattern.of(
                    "input-tokens-must-be-less",
                    "(?:prompt|input)s?\\W*(?:tokens?\\W)?.{0,60}?must (?:be|have) (?:<=?|less than|smaller than|at most"
                            + "|no (?:more|greater) than|fewer than)|length of prompt_tokens"
                            + "|(?:input|prompt|context) length\\b.{0,40}?exceeds? (?:the )?max(?:imum)?"),
            NamedPattern.of(
                    "too-large-for-model",
                    "too (?:large|long) for (?:the )?\\S+ model\\b|max(?:imum)? size:? [\\d,]+ tokens"));

    private static final NamedPattern THROUGHPUT_LIMIT = NamedPattern.of(
            "throughput-limit",
            "\\brate[ _-]?limit|please wait|throttl|tokens per (?:min|minute|day)\\b|\\b[RT]P[MD]\\b");

    private OverflowRules() {}

    /** The rule that recognised an overflow ({@code overflow:code:…} or {@code overflow:text:…}), if any. */
    static Optional<String> match(ProviderFailure failure, String text) {
        if (failure != null && Integer.valueOf(429).equals(failure.httpStatus())) {
            return Optional.empty();
        }
        if (failure != null) {
            for (String fact : new String[] {failure.errorCode(), failure.errorType()}) {
                if (fact != null && OVERFLOW_CODES.contains(fact.toLowerCase(Locale.ROOT))) {
                    return Optional.of("overflow:code:" + fact);
                }
            }
        }
        if (THROUGHPUT_LIMIT.foundIn(text)) {
            return Optional.empty();
        }
        return NamedPattern.firstIn(PATTERNS, text).map(name -> "overflow:text:" + name);
    }
}
