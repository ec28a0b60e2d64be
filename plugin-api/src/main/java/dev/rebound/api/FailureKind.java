package dev.rebound.api;

/** Where a provider call failed. {@link #toString()} gives the wire name. */
public enum FailureKind {
    /** The server answered with an HTTP error status. */
    HTTP("http"),
    /** The server sent an error object inside a successful (200) stream. */
    STREAM_ERROR("stream_error"),
    /**
     * The stream failed before its first event: the server accepted the request, then sent an error instead of the
     * reply's envelope (Anthropic's {@code error} event before {@code message_start}). Transient unless the error's
     * type says otherwise.
     */
    ENVELOPE("envelope"),
    /** Connecting, sending or receiving failed (refused, reset, DNS, TLS...). */
    TRANSPORT("transport"),
    /** The stream ended without its terminal signal. */
    TRUNCATED("truncated"),
    /** No first byte, or no data between events, within the configured time. */
    TIMEOUT("timeout"),
    /** The server's reply could not be understood. */
    PROTOCOL("protocol"),
    /**
     * The reply was larger than the {@code limits} settings allow (its text, one stream line, or the whole body after
     * decompression): Rebound stopped reading it. Never retried: the same request would bring the same flood.
     */
    TOO_LARGE("too_large"),
    /** Rebound could not make the call at all (no credential, bad configuration). */
    CONFIGURATION("configuration"),
    /**
     * Every API key of the provider is blocked after usage limits, so Rebound did not send the request. The
     * {@code retry-after-ms} header holds the time until the first key is free again.
     */
    CREDENTIALS_BLOCKED("credentials_blocked");

    private final String wireName;

    FailureKind(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
