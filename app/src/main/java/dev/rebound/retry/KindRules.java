package dev.rebound.retry;

import dev.rebound.event.ErrorKind;
import dev.rebound.transcript.ProviderFailure;
import java.util.Optional;

/**
 * Decides by where the call failed, for failures that carry no HTTP status or provider type: timeouts (no first byte,
 * a stalled stream, a connect timeout) and truncated streams are transient; transport failures are transient unless a
 * TLS certificate could not be verified; a stream that failed before its first event (an envelope failure) is transient
 * when its error type did not already decide; a reply over the size limits is terminal; a reply that is not the protocol is terminal (a login page, a proxy speaking
 * something else, or Rebound failing to handle the reply: repeating the request would not change it).
 */
final class KindRules {
    private KindRules() {}

    /** The verdict the failure kind supports, or empty for HTTP and stream errors (left to the text). */
    static Optional<Classification> classify(ProviderFailure failure, String text) {
        if (failure == null) {
            return Optional.empty();
        }
        return switch (failure.kind()) {
            case TIMEOUT -> Optional.of(Classification.retry(ErrorKind.TRANSIENT, "kind:timeout"));
            case TRUNCATED -> Optional.of(Classification.retry(ErrorKind.TRANSIENT, "kind:truncated"));
            case TRANSPORT ->
                Optional.of(
                        TextRules.isCertificateFailure(text)
                                ? Classification.terminal("text:tls-certificate")
                                : Classification.retry(ErrorKind.TRANSIENT, "kind:transport"));
            case ENVELOPE -> Optional.of(Classification.retry(ErrorKind.TRANSIENT, "kind:envelope"));
            case PROTOCOL -> Optional.of(Classification.terminal("kind:protocol"));
            case TOO_LARGE -> Optional.of(Classification.terminal("kind:too_large"));
            case CONFIGURATION -> Optional.of(Classification.terminal("kind:configuration"));
            case CREDENTIALS_BLOCKED ->
                Optional.of(Classification.usageLimit(UsageLimitReason.UNKNOWN, "kind:credentials_blocked"));
            case HTTP, STREAM_ERROR -> Optional.empty();
        };
    }
}
