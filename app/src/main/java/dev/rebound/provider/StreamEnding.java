package dev.rebound.provider;

import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;

/** How a stream that sent its terminal signal ended, as its wire format says. */
public sealed interface StreamEnding {

    /** A normal end: {@link StopReason#STOP}, {@link StopReason#LENGTH} or {@link StopReason#TOOL_USE}. */
    record Complete(StopReason reason) implements StreamEnding {}

    /**
     * The provider stopped the reply itself: a refusal or a content filter. Not a failed call, so it has no
     * {@code ProviderFailure}; the stop details say which.
     */
    record Stopped(String message, StopDetails details) implements StreamEnding {}

    /** The provider ended the reply as failed (a {@code response.failed}, a finish reason {@code error}). */
    record Failed(StreamProblem problem) implements StreamEnding {}
}
