package dev.rebound.provider.openai;

import dev.rebound.provider.ErrorBody;
import dev.rebound.transcript.FailureKind;

/**
 * Why a 200 response could not be read as a reply: an error object the provider sent ({@link FailureKind#STREAM_ERROR})
 * or something that is not the protocol ({@link FailureKind#PROTOCOL}).
 *
 * @param kind the failure kind
 * @param message the message for people
 * @param error what the provider's error object said; {@link ErrorBody#EMPTY} for a protocol violation
 */
record StreamProblem(FailureKind kind, String message, ErrorBody error) {}
