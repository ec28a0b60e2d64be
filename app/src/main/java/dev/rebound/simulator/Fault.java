package dev.rebound.simulator;

/**
 * What the simulator does with one request. Each {@link FaultStep} of a scenario holds one fault; {@link Ok} is what a
 * request gets when no step is queued for it. The error faults answer with the status, headers and body a real
 * provider sends for that failure, so Rebound's classifier sees what it would see in production. The bodies named
 * below are those of Chat Completions ({@link FaultResponses}); every other format renders the same fault in its own
 * provider's shape ({@link AnthropicErrors}, {@link GeminiErrors}, {@link ResponsesDialect}).
 */
public sealed interface Fault {

    /** The name used in scenario files and RPC commands ({@code rate-limit}). */
    default String name() {
        return switch (this) {
            case Ok _ -> "ok";
            case Overload _ -> "overload";
            case ServerError _ -> "server-error";
            case RateLimit _ -> "rate-limit";
            case UsageLimit _ -> "usage-limit";
            case InsufficientQuota _ -> "insufficient-quota";
            case ResetBeforeHeaders _ -> "reset-before-headers";
            case CutAfter _ -> "cut-after";
            case Stall _ -> "stall";
            case Refusal _ -> "refusal";
            case ContextOverflow _ -> "context-overflow";
            case Unauthorized _ -> "unauthorized";
            case Delay _ -> "delay";
        };
    }

    /** A normal streamed reply. */
    record Ok() implements Fault {}

    /**
     * The provider is overloaded: in Chat Completions HTTP 529 with Anthropic's {@code overloaded_error} body, in each
     * other format its own overload. With {@code inStream}, a streamed request gets instead a 200 whose stream reports
     * the overload before any text and ends (Anthropic's {@code event: error} before {@code message_start}); a request
     * that did not ask to stream still gets the HTTP error.
     *
     * @param inStream whether a stream reports it, rather than the status
     */
    record Overload(boolean inStream) implements Fault {
        /** The overload as an HTTP status. */
        public Overload() {
            this(false);
        }
    }

    /**
     * OpenAI's way of being overloaded: HTTP 503 ("The server is overloaded or not ready yet.") or 500 ("The server had
     * an error while processing your request."), with a {@code server_error} body.
     *
     * @param status 500 or 503
     */
    record ServerError(int status) implements Fault {
        public ServerError {
            if (status != 500 && status != 503) {
                throw new IllegalArgumentException("a server error is 500 or 503, not " + status);
            }
        }
    }

    /**
     * HTTP 429 with OpenAI's {@code rate_limit_exceeded} body and a {@code retry-after} (seconds) or
     * {@code retry-after-ms} header; exactly one of the two is set.
     *
     * @param retryAfterSeconds the {@code retry-after} value, or null
     * @param retryAfterMs the {@code retry-after-ms} value, or null
     */
    record RateLimit(Long retryAfterSeconds, Long retryAfterMs) implements Fault {
        public RateLimit {
            if ((retryAfterSeconds == null) == (retryAfterMs == null)) {
                throw new IllegalArgumentException("a rate limit has either retryAfterSeconds or retryAfterMs");
            }
        }
    }

    /**
     * HTTP 429 with the {@code usage_limit_reached} body of ChatGPT-plan backends ({@code resets_at},
     * {@code resets_in_seconds}) and a matching {@code retry-after} header.
     *
     * @param resetsInSeconds when the limit resets, from now
     */
    record UsageLimit(long resetsInSeconds) implements Fault {}

    /** HTTP 429 with OpenAI's {@code insufficient_quota} body (billing: switches credential, never waits). */
    record InsufficientQuota() implements Fault {}

    /** The connection is closed after the request is read, before any response header is sent. */
    record ResetBeforeHeaders() implements Fault {}

    /**
     * The reply streams normally, then the stream ends after {@code chars} characters of text, with no finish reason
     * and no {@code [DONE]}.
     */
    record CutAfter(int chars) implements Fault {}

    /**
     * The reply streams {@code afterChars} characters of text, then not a byte more is sent (no keep-alive comment
     * either, so a client's idle timeout sees the stall) while the connection stays open: until the client closes it,
     * the simulator stops, or 10 minutes pass, when the simulator closes it.
     */
    record Stall(int afterChars) implements Fault {}

    /** A 200 stream whose delta carries OpenAI's {@code refusal} field instead of content. */
    record Refusal() implements Fault {}

    /** HTTP 400 with OpenAI's {@code context_length_exceeded} body. */
    record ContextOverflow() implements Fault {}

    /** HTTP 401 with OpenAI's {@code invalid_api_key} body. */
    record Unauthorized() implements Fault {}

    /**
     * Waits {@code ms} milliseconds before sending the response headers, then answers normally. When the client closes
     * the connection (or the simulator stops) first, the wait ends and nothing is sent.
     */
    record Delay(long ms) implements Fault {}
}
