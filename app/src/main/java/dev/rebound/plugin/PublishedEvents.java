package dev.rebound.plugin;

import dev.rebound.api.AgentEnd;
import dev.rebound.api.AgentStart;
import dev.rebound.api.AssistantMessage;
import dev.rebound.api.AutoRetryEnd;
import dev.rebound.api.AutoRetryStart;
import dev.rebound.api.ChatMessage;
import dev.rebound.api.ContentBlock;
import dev.rebound.api.CredentialSwitched;
import dev.rebound.api.DeltaKind;
import dev.rebound.api.ErrorKind;
import dev.rebound.api.FailureKind;
import dev.rebound.api.MessageEnd;
import dev.rebound.api.MessageStart;
import dev.rebound.api.MessageUpdate;
import dev.rebound.api.ModelChangeReason;
import dev.rebound.api.ModelChanged;
import dev.rebound.api.ModelRef;
import dev.rebound.api.Notice;
import dev.rebound.api.NoticeLevel;
import dev.rebound.api.ProviderFailure;
import dev.rebound.api.RetryAttempt;
import dev.rebound.api.RetryChainEnd;
import dev.rebound.api.RetryEndReason;
import dev.rebound.api.RetryFallbackApplied;
import dev.rebound.api.RetryFallbackReverted;
import dev.rebound.api.RetryFallbackSucceeded;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionRef;
import dev.rebound.api.StopDetails;
import dev.rebound.api.StopReason;
import dev.rebound.api.Usage;
import dev.rebound.api.UserMessage;
import dev.rebound.session.EventScope;
import java.util.Locale;

/**
 * The one mapping from the session core's internal events to the published {@code dev.rebound.api} records plugins
 * receive. The core may change its own model freely; only this class follows it, and the published shape stays put.
 * Internal events are named by their full name here because both sides share the simple names.
 */
public final class PublishedEvents {

    private PublishedEvents() {}

    /** The published form of an internal event, with the chat and turn it belongs to. */
    public static SessionEvent of(dev.rebound.event.SessionEvent event, EventScope scope) {
        SessionRef s = new SessionRef(
                scope.sessionId(),
                scope.sessionFile() == null
                        ? null
                        : scope.sessionFile().getFileName().toString());
        String turn = scope.turnId();
        return switch (event) {
            case dev.rebound.event.AgentStart e -> new AgentStart(s, e.turnId());
            case dev.rebound.event.AgentEnd e -> new AgentEnd(s, e.turnId(), e.willRetry());
            case dev.rebound.event.MessageStart e -> new MessageStart(s, turn, message(e.message()));
            case dev.rebound.event.MessageUpdate e ->
                new MessageUpdate(
                        s,
                        turn,
                        e.messageId(),
                        dev.rebound.event.MessageUpdate.THINKING.equals(e.kind()) ? DeltaKind.THINKING : DeltaKind.TEXT,
                        e.delta());
            case dev.rebound.event.MessageEnd e -> new MessageEnd(s, turn, message(e.message()));
            case dev.rebound.event.ModelChanged e ->
                new ModelChanged(s, turn, model(e.from()), model(e.model()), changeReason(e.reason()));
            case dev.rebound.event.Notice e -> new Notice(s, turn, level(e.level()), e.message());
            case dev.rebound.event.AutoRetryStart e ->
                new AutoRetryStart(
                        s,
                        turn,
                        e.attempt(),
                        e.maxAttempts(),
                        e.delayMs(),
                        e.errorMessage(),
                        kind(e.errorKind()),
                        model(e.model()),
                        e.credential(),
                        e.retryAt());
            case dev.rebound.event.AutoRetryEnd e ->
                new AutoRetryEnd(s, turn, e.success(), e.attempt(), e.finalError(), reason(e.reason()));
            case dev.rebound.event.RetryChainEnd e ->
                new RetryChainEnd(
                        s,
                        e.turnId(),
                        e.attempts().stream().map(PublishedEvents::attempt).toList(),
                        reason(e.reason()),
                        e.finalError(),
                        e.startedAt(),
                        e.endedAt());
            case dev.rebound.event.CredentialSwitched e ->
                new CredentialSwitched(s, turn, e.provider(), e.from(), e.to());
            case dev.rebound.event.RetryFallbackApplied e ->
                new RetryFallbackApplied(s, turn, model(e.from()), model(e.to()), e.role());
            case dev.rebound.event.RetryFallbackSucceeded e ->
                new RetryFallbackSucceeded(s, turn, model(e.model()), e.role());
            case dev.rebound.event.RetryFallbackReverted e ->
                new RetryFallbackReverted(s, turn, model(e.from()), model(e.to()));
        };
    }

    static ChatMessage message(dev.rebound.transcript.ChatMessage message) {
        return switch (message) {
            case dev.rebound.transcript.UserMessage u -> new UserMessage(u.id(), u.text(), u.timestamp());
            case dev.rebound.transcript.AssistantMessage a ->
                new AssistantMessage(
                        a.id(),
                        a.content().stream().map(PublishedEvents::block).toList(),
                        new ModelRef(a.provider(), a.model()),
                        a.api(),
                        a.credential(),
                        usage(a.usage()),
                        stopReason(a.stopReason()),
                        a.errorMessage(),
                        a.stopDetails() == null
                                ? null
                                : new StopDetails(
                                        a.stopDetails().type(), a.stopDetails().explanation()),
                        failure(a.failure()),
                        a.timestamp());
        };
    }

    private static ContentBlock block(dev.rebound.transcript.ContentBlock block) {
        return switch (block) {
            case dev.rebound.transcript.ContentBlock.Text t -> new ContentBlock.Text(t.text());
            case dev.rebound.transcript.ContentBlock.Thinking t ->
                new ContentBlock.Thinking(t.thinking(), t.redacted());
            case dev.rebound.transcript.ContentBlock.ToolCall t ->
                new ContentBlock.ToolCall(t.id(), t.name(), t.arguments());
        };
    }

    private static Usage usage(dev.rebound.transcript.Usage u) {
        return u == null
                ? Usage.NONE
                : new Usage(u.inputTokens(), u.outputTokens(), u.cacheReadTokens(), u.cacheWriteTokens());
    }

    private static ProviderFailure failure(dev.rebound.transcript.ProviderFailure f) {
        return f == null
                ? null
                : new ProviderFailure(failureKind(f.kind()), f.httpStatus(), f.errorType(), f.errorCode(), f.headers());
    }

    // The enum mappings are exhaustive switches: a value added to the core's enum does not compile until it has its
    // published counterpart (or a deliberate mapping), instead of failing at run time for every plugin.

    private static FailureKind failureKind(dev.rebound.transcript.FailureKind kind) {
        return kind == null
                ? null
                : switch (kind) {
                    case HTTP -> FailureKind.HTTP;
                    case STREAM_ERROR -> FailureKind.STREAM_ERROR;
                    case ENVELOPE -> FailureKind.ENVELOPE;
                    case TOO_LARGE -> FailureKind.TOO_LARGE;
                    case TRANSPORT -> FailureKind.TRANSPORT;
                    case TRUNCATED -> FailureKind.TRUNCATED;
                    case TIMEOUT -> FailureKind.TIMEOUT;
                    case PROTOCOL -> FailureKind.PROTOCOL;
                    case CONFIGURATION -> FailureKind.CONFIGURATION;
                    case CREDENTIALS_BLOCKED -> FailureKind.CREDENTIALS_BLOCKED;
                };
    }

    private static StopReason stopReason(dev.rebound.transcript.StopReason reason) {
        return reason == null
                ? null
                : switch (reason) {
                    case STOP -> StopReason.STOP;
                    case LENGTH -> StopReason.LENGTH;
                    case TOOL_USE -> StopReason.TOOL_USE;
                    case ERROR -> StopReason.ERROR;
                    case ABORTED -> StopReason.ABORTED;
                };
    }

    private static RetryAttempt attempt(dev.rebound.event.RetryAttempt a) {
        return new RetryAttempt(
                a.attempt(),
                kind(a.errorKind()),
                a.httpStatus(),
                model(a.model()),
                a.credential(),
                a.delayMs(),
                a.errorMessage());
    }

    private static ErrorKind kind(dev.rebound.event.ErrorKind kind) {
        return kind == null
                ? null
                : switch (kind) {
                    case TRANSIENT -> ErrorKind.TRANSIENT;
                    case RATE_LIMIT -> ErrorKind.RATE_LIMIT;
                    case USAGE_LIMIT -> ErrorKind.USAGE_LIMIT;
                    case STALE_REPLAY -> ErrorKind.STALE_REPLAY;
                    case REFUSAL -> ErrorKind.REFUSAL;
                    case REASONLESS_ABORT -> ErrorKind.REASONLESS_ABORT;
                };
    }

    private static RetryEndReason reason(dev.rebound.event.RetryEndReason reason) {
        return reason == null
                ? null
                : switch (reason) {
                    case SUCCEEDED -> RetryEndReason.SUCCEEDED;
                    case EXHAUSTED -> RetryEndReason.EXHAUSTED;
                    case MAX_DELAY_EXCEEDED -> RetryEndReason.MAX_DELAY_EXCEEDED;
                    case ELAPSED_BUDGET_EXCEEDED -> RetryEndReason.ELAPSED_BUDGET_EXCEEDED;
                    case CANCELLED -> RetryEndReason.CANCELLED;
                    case ABORTED -> RetryEndReason.ABORTED;
                    case NOT_RETRYABLE -> RetryEndReason.NOT_RETRYABLE;
                    case DISABLED -> RetryEndReason.DISABLED;
                };
    }

    private static ModelRef model(dev.rebound.transcript.ModelRef ref) {
        return ref == null ? null : new ModelRef(ref.provider(), ref.id());
    }

    /** A {@code provider/id} selector as a model; one without a slash keeps its whole text as the id. */
    private static ModelRef model(String selector) {
        if (selector == null) {
            return null;
        }
        int slash = selector.indexOf('/');
        return slash <= 0
                ? new ModelRef("", selector)
                : new ModelRef(selector.substring(0, slash), selector.substring(slash + 1));
    }

    private static NoticeLevel level(String level) {
        return switch (level == null ? "" : level.toLowerCase(Locale.ROOT)) {
            case "warning", "warn" -> NoticeLevel.WARNING;
            case "error" -> NoticeLevel.ERROR;
            default -> NoticeLevel.INFO;
        };
    }

    private static ModelChangeReason changeReason(String reason) {
        return switch (reason == null ? "" : reason) {
            case dev.rebound.event.ModelChanged.FALLBACK -> ModelChangeReason.FALLBACK;
            case dev.rebound.event.ModelChanged.REVERT -> ModelChangeReason.REVERT;
            default -> ModelChangeReason.USER;
        };
    }
}
