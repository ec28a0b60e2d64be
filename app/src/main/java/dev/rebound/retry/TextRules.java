package dev.rebound.retry;

import dev.rebound.api.ErrorKind;
import java.util.List;
import java.util.Optional;

/**
 * The second layer of the classifier: the error text, for failures the structured facts do not decide (transport
 * exceptions, errors inside streams, errors wrapped by proxies and plugins). Numbers match only as whole tokens.
 *
 * <p>Order, first match wins: a TLS certificate failure (terminal: retrying cannot fix a certificate), billing, model
 * capacity, usage limit, rate limit, transient wording, a transient status number, else terminal {@code unrecognised}.
 */
final class TextRules {
    private static final NamedPattern TLS_CERTIFICATE = NamedPattern.of("tls-certificate",
            "PKIX path|certification path|CertificateException|certificate (?:has expired|is not trusted|verify failed)"
                    + "|SSLPeerUnverifiedException|Hostname \\S+ not verified");

    private static final List<NamedPattern> RATE_LIMIT = List.of(
            NamedPattern.of("rate-limit", "\\brate[ _-]?limit"),
            NamedPattern.of("too-many-requests", "too many requests"),
            NamedPattern.of("throttled", "throttl"),
            NamedPattern.of("status-429", NamedPattern.wholeNumber("429")));

    private static final List<NamedPattern> TRANSIENT = List.of(
            NamedPattern.of("overloaded", "overload"),
            NamedPattern.of("provider-returned-error", "provider returned error"),
            NamedPattern.of("service-unavailable",
                    "service (?:is )?(?:temporarily )?unavailable|temporarily unavailable"),
            NamedPattern.of("server-error", "server[ _]error|internal[ _]error|server had an error"),
            NamedPattern.of("bad-gateway", "bad gateway"),
            NamedPattern.of("gateway-timeout", "gateway time-?out"),
            NamedPattern.of("retry-your-request", "retry your request"),
            NamedPattern.of("upstream-connect", "upstream connect error|reset before headers|no healthy upstream"),
            NamedPattern.of("socket-hang-up", "socket hang up"),
            NamedPattern.of("connection-failure", "connection (?:error|refused|reset|closed|lost|failed|terminated)"
                    + "|connection was (?:reset|closed|aborted)|other side closed|broken pipe|no route to host"
                    + "|network (?:error|is unreachable)|\\bECONN(?:RESET|REFUSED|ABORTED)\\b|\\bEPIPE\\b"),
            NamedPattern.of("unexpected-end-of-stream",
                    "unexpected end of (?:stream|file)|unexpected EOF|EOFException|end of stream on"),
            NamedPattern.of("http2-stream-reset", "RST_STREAM|stream was reset|GOAWAY|ConnectionShutdownException"),
            NamedPattern.of("stream-stalled", "stream stalled"),
            NamedPattern.of("truncated-stream",
                    "stream ended before|ended before the reply was complete|stream disconnected before completion"),
            NamedPattern.of("finish-reason-error", "finish_reason '?error'?"),
            NamedPattern.of("fetch-failed", "fetch failed"),
            NamedPattern.of("timeout", "timed? ?out\\b|timeout|deadline exceeded"),
            NamedPattern.of("terminated", "^(?:typeerror: )?terminated$|(?:error|exception): terminated\\b"
                    + "|(?:stream|request|fetch|socket|connection|response)(?: was)? terminated"
                    + "|terminated unexpectedly"),
            NamedPattern.of("retry-delay", "retry delay|retry (?:in|after) \\d|try again in \\d"));

    private static final List<NamedPattern> TRANSIENT_STATUS = List.of(
            NamedPattern.of("status-500", NamedPattern.wholeNumber("500")),
            NamedPattern.of("status-502", NamedPattern.wholeNumber("502")),
            NamedPattern.of("status-503", NamedPattern.wholeNumber("503")),
            NamedPattern.of("status-504", NamedPattern.wholeNumber("504")),
            NamedPattern.of("status-529", NamedPattern.wholeNumber("529")));

    private TextRules() {
    }

    /** Whether {@code text} reports a TLS certificate that could not be verified. */
    static boolean isCertificateFailure(String text) {
        return TLS_CERTIFICATE.foundIn(text);
    }

    /** The verdict the text supports; terminal {@code unrecognised} when nothing matches. */
    static Classification classify(String text) {
        if (isCertificateFailure(text)) {
            return Classification.terminal("text:" + TLS_CERTIFICATE.name());
        }
        return accountLimit(text)
                .or(() -> NamedPattern.firstIn(RATE_LIMIT, text)
                        .map(name -> Classification.retry(ErrorKind.RATE_LIMIT, "text:" + name)))
                .or(() -> NamedPattern.firstIn(TRANSIENT, text)
                        .or(() -> NamedPattern.firstIn(TRANSIENT_STATUS, text))
                        .map(name -> Classification.retry(ErrorKind.TRANSIENT, "text:" + name)))
                .orElseGet(() -> Classification.terminal("unrecognised"));
    }

    private static Optional<Classification> accountLimit(String text) {
        return AccountLimitRules.billing(text)
                .map(name -> Classification.usageLimit(UsageLimitReason.BILLING, "text:" + name))
                .or(() -> AccountLimitRules.capacity(text)
                        .map(name -> Classification.usageLimit(UsageLimitReason.MODEL_CAPACITY, "text:" + name)))
                .or(() -> AccountLimitRules.usageLimit(text)
                        .map(name -> Classification.usageLimit(AccountLimitRules.period(text), "text:" + name)));
    }
}
