package dev.rebound.retry;

import dev.rebound.event.ErrorKind;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The one classifier of finished assistant messages (§2 of the retry policy): every caller that decides whether a
 * failure is retried, compacted or shown asks it, and no other list of retryable errors exists.
 *
 * <p>Order, first match wins:
 * <ol>
 *   <li>an aborted stop: a <em>reasonless abort</em> when it has no content at all, carries exactly the generic
 *       {@value #GENERIC_ABORT_MESSAGE} and nobody asked for an abort; otherwise a user abort (terminal);</li>
 *   <li>anything but an error with an error message: not an error;</li>
 *   <li>a configuration failure (Rebound could not make the call): terminal;</li>
 *   <li>a context overflow: its own verdict, checked before anything retryable so it always reaches compaction;</li>
 *   <li>a refusal, from the structured stop details only ({@code refusal} or {@code sensitive});</li>
 *   <li>a stale replay, for the {@code openai-responses} api only;</li>
 *   <li>the structured facts ({@link StructuredRules}), then the failure kind ({@link KindRules}), then the text
 *       ({@link TextRules}), which ends in terminal {@code unrecognised};</li>
 *   <li>the observable-output guard: a stale replay, transient, rate-limit or usage-limit verdict for a message that
 *       already showed output becomes terminal ({@code observable-output}).</li>
 * </ol>
 * Each verdict names the rule that decided it. Stateless and thread-safe.
 */
public final class ErrorClassifier {
    /** The error message of an abort nobody explained; the session and the providers use the same words. */
    public static final String GENERIC_ABORT_MESSAGE = "Request was aborted";

    private static final Set<ErrorKind> GUARDED_KINDS =
            EnumSet.of(ErrorKind.STALE_REPLAY, ErrorKind.TRANSIENT, ErrorKind.RATE_LIMIT, ErrorKind.USAGE_LIMIT);

    /** The verdict on one finished assistant message. */
    public Classification classify(ClassifierInput input) {
        AssistantMessage message = input.message();
        if (message.stopReason() == StopReason.ABORTED) {
            return classifyAbort(input);
        }
        String text = message.errorMessage();
        if (!message.isError() || text == null || text.isBlank()) {
            return Classification.notAnError();
        }
        ProviderFailure failure = message.failure();
        if (failure != null && failure.kind() == FailureKind.CONFIGURATION) {
            return Classification.terminal("kind:configuration");
        }
        if (failure != null && failure.kind() == FailureKind.CREDENTIALS_BLOCKED) {
            // Nothing was sent: the usage-limit path waits for a key, falls back to another model, or gives up.
            return Classification.usageLimit(
                    "billing".equals(failure.errorType()) ? UsageLimitReason.BILLING : UsageLimitReason.UNKNOWN,
                    "kind:credentials_blocked");
        }
        Optional<String> overflow = OverflowRules.match(failure, text);
        if (overflow.isPresent()) {
            return Classification.overflow(overflow.get());
        }
        StopDetails details = message.stopDetails();
        if (details != null && details.isRefusal()) {
            return Classification.retry(ErrorKind.REFUSAL, "stop-details:" + details.type());
        }
        return withObservableOutputGuard(message, failureVerdict(input, failure, text));
    }

    private static Classification classifyAbort(ClassifierInput input) {
        AssistantMessage message = input.message();
        boolean reasonless =
                !input.abortRequested() && message.content().isEmpty() && isGenericAbortMessage(message.errorMessage());
        return reasonless
                ? Classification.retry(ErrorKind.REASONLESS_ABORT, "reasonless-abort")
                : Classification.terminal("user-abort");
    }

    /** The generic abort message, ignoring surrounding blanks and a final period (some SDKs add one). */
    private static boolean isGenericAbortMessage(String errorMessage) {
        if (errorMessage == null) {
            return false;
        }
        String stripped = errorMessage.strip();
        if (stripped.endsWith(".")) {
            stripped = stripped.substring(0, stripped.length() - 1);
        }
        return stripped.equals(GENERIC_ABORT_MESSAGE);
    }

    private static Classification failureVerdict(ClassifierInput input, ProviderFailure failure, String text) {
        if (StaleReplayRules.RESPONSES_API.equals(api(input))) {
            Optional<String> stale = StaleReplayRules.match(failure, text);
            if (stale.isPresent()) {
                return Classification.retry(ErrorKind.STALE_REPLAY, stale.get());
            }
        }
        return StructuredRules.classify(failure, text)
                .or(() -> KindRules.classify(failure, text))
                .orElseGet(() -> TextRules.classify(text));
    }

    /** The input's api, else the message's own. */
    private static String api(ClassifierInput input) {
        return input.api() != null ? input.api() : input.message().api();
    }

    private static Classification withObservableOutputGuard(AssistantMessage message, Classification verdict) {
        if (verdict.isRetry() && GUARDED_KINDS.contains(verdict.kind()) && message.hasObservableOutput()) {
            return Classification.terminal("observable-output");
        }
        return verdict;
    }
}
