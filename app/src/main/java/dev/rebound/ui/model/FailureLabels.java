package dev.rebound.ui.model;

import dev.rebound.event.ErrorKind;
import dev.rebound.transcript.ProviderFailure;
import java.util.Locale;

/**
 * A failed call's short name for people, as a reply's retry record shows it: {@code overloaded (529)},
 * {@code rate limited (429)}, {@code connection lost}. The retry policy's kind comes first (it is what decided the
 * retry), then what the provider said (an {@code overloaded_error} type, the HTTP status), then where the call broke.
 */
final class FailureLabels {

    private FailureLabels() {}

    static String of(ErrorKind kind, Integer status, ProviderFailure failure) {
        String name = name(kind, status, failure);
        return status == null ? name : name + " (" + status + ")";
    }

    private static String name(ErrorKind kind, Integer status, ProviderFailure failure) {
        if (kind != null) {
            switch (kind) {
                case RATE_LIMIT -> {
                    return "rate limited";
                }
                case USAGE_LIMIT -> {
                    return "usage limit";
                }
                case STALE_REPLAY -> {
                    return "conversation expired on the server";
                }
                case REFUSAL -> {
                    return "refused";
                }
                case REASONLESS_ABORT -> {
                    return "aborted without a reason";
                }
                case TRANSIENT -> {
                    // Named below by what the provider said.
                }
            }
        }
        if (failure != null && saysOverloaded(failure)) {
            return "overloaded";
        }
        if (status != null) {
            return switch (status) {
                case 529 -> "overloaded";
                case 503 -> "unavailable";
                case 502 -> "bad gateway";
                case 504 -> "gateway timeout";
                case 408 -> "request timeout";
                case 429 -> "rate limited";
                case 401, 403 -> "key refused";
                case 404 -> "not found";
                case 400, 422 -> "request refused";
                case 413 -> "request too large";
                default -> status >= 500 ? "server error" : "HTTP error";
            };
        }
        if (failure == null || failure.kind() == null) {
            return "failed";
        }
        return switch (failure.kind()) {
            case TRANSPORT -> "connection lost";
            case TIMEOUT -> "timed out";
            case TRUNCATED -> "reply cut off";
            case STREAM_ERROR -> "error in the stream";
            case ENVELOPE -> "error before the reply";
            case PROTOCOL -> "not a valid reply";
            case TOO_LARGE -> "reply too large";
            case CONFIGURATION -> "configuration problem";
            case CREDENTIALS_BLOCKED -> "every key blocked";
            case HTTP -> "HTTP error";
        };
    }

    private static boolean saysOverloaded(ProviderFailure failure) {
        for (String said : new String[] {failure.errorType(), failure.errorCode()}) {
            if (said != null && said.toLowerCase(Locale.ROOT).contains("overload")) {
                return true;
            }
        }
        return false;
    }
}
