package dev.rebound.provider;

import dev.rebound.transcript.FailureKind;

/**
 * Why a 200 response could not be read as a reply: an error object the provider sent ({@link FailureKind#STREAM_ERROR},
 * or {@link FailureKind#ENVELOPE} before the stream's first event) or something that is not the protocol
 * ({@link FailureKind#PROTOCOL}).
 *
 * @param kind the failure kind
 * @param message the message for people
 * @param error what the provider's error object said; {@link ErrorBody#EMPTY} for a protocol violation
 */
public record StreamProblem(FailureKind kind, String message, ErrorBody error) {
    /** A reply that is not the protocol. */
    public static StreamProblem protocol(String message) {
        return new StreamProblem(FailureKind.PROTOCOL, message, ErrorBody.EMPTY);
    }
}
