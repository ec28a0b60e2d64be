package dev.rebound.provider;

/**
 * Reads one wire format's reply into a {@link ReplyBuilder}, one server-sent event at a time, and says how it ended.
 * Used by the thread that reads the stream.
 */
public interface StreamParser {

    /**
     * Handles one server-sent event (already scrubbed of every secret).
     *
     * @return true when reading must stop: the terminal event, an error, a protocol problem
     */
    boolean onEvent(String type, String data);

    /**
     * Handles a 200 response that is not an event stream (a proxy that ignored streaming).
     *
     * @return true when it was a reply or an error object (now recorded); false when it is neither and nothing was
     *     recorded
     */
    boolean onCompleteResponse(String body);

    /** Whether the stream sent its terminal signal. */
    boolean ended();

    /** The error or protocol problem that stopped the stream, or null. */
    StreamProblem problem();

    /** How the stream ended; called only when {@link #ended()}. */
    StreamEnding ending();

    /** What was missing from a stream that stopped without its end ({@code no finish_reason or [DONE] received}). */
    String missingEnd();
}
