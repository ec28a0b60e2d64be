package dev.rebound.simulator;

import java.util.Map;

/**
 * An HTTP answer with a JSON body that the simulator sends whole: an error fault, a request it refuses, a 404.
 *
 * @param status the HTTP status
 * @param headers headers besides {@code Content-Type: application/json}, in the order they are set
 * @param body the JSON body
 */
record ErrorResponse(int status, Map<String, String> headers, String body) {}
