package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import java.net.URI;
import java.util.Optional;

/**
 * One wire format the simulator speaks: how a request of that format is read, how each error fault is rendered in the
 * provider's own shape, and how the 200 answer is written ({@link ReplyFormat}). Everything else — the fault script,
 * delays, resets, pacing, cuts and stalls — is the same for every format and lives in {@link SimulatorServer} and
 * {@link ReplyResponder}.
 */
sealed interface WireDialect permits ChatCompletionsDialect, AnthropicDialect, ResponsesDialect, GeminiDialect {

    /**
     * A request as it arrived.
     *
     * @param uri its URI (path and query)
     * @param headers its headers
     * @param body its body as JSON, or null when it is not JSON
     * @param number its number since the server started
     */
    record Incoming(URI uri, Headers headers, JsonNode body, long number) {
        /** The request id every format reports: {@code req_sim_N}. */
        String requestId() {
            return "req_sim_" + number;
        }
    }

    /** What reading a request gave: a request to answer, or the format's refusal of it. */
    sealed interface Reading {
        /** A request to answer. */
        record Accepted(ReplyRequest request) implements Reading {}

        /** A request the format refuses before any fault is taken (an unreadable body…). */
        record Refused(ErrorResponse response) implements Reading {}
    }

    /** Reads a request of this format. */
    Reading read(Incoming incoming);

    /** The error response of an error fault; empty for the faults answered with a 200 or not at all. */
    Optional<ErrorResponse> error(Fault fault, ReplyRequest request);

    /** How the 200 answer to {@code request} is written. */
    ReplyFormat format(ReplyRequest request);
}
