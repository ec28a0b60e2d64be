package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one request for a reply asked for, in whatever wire format it came: what every format's answer is made from.
 *
 * @param body the request's JSON
 * @param model the model name to answer as
 * @param key the API key it was sent with, or null (the key a {@link FaultStep} may be kept for)
 * @param prompt the text of the last user message (it decides the reply)
 * @param promptTokens the prompt's size in simulator tokens, as usage reports it
 * @param streamed whether the client asked for a streamed answer
 * @param requestId the request's id ({@code req_sim_N})
 * @param number the request's number since the server started (names the reply)
 */
record ReplyRequest(
        JsonNode body,
        String model,
        String key,
        String prompt,
        int promptTokens,
        boolean streamed,
        String requestId,
        long number) {}
