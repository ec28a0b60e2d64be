package dev.rebound.provider;

import java.util.Map;

/**
 * Standard reason phrases of HTTP status codes, plus the non-standard ones LLM providers and their CDNs use (Anthropic's
 * 529, Cloudflare's 52x). Error messages use these rather than the phrase a server sent: HTTP/2 sends none, and proxies
 * send odd ones, while the retry classifier and people reading logs do better with one predictable wording.
 */
public final class HttpReasonPhrases {
    private static final Map<Integer, String> PHRASES = Map.ofEntries(
            Map.entry(300, "Multiple Choices"),
            Map.entry(301, "Moved Permanently"),
            Map.entry(302, "Found"),
            Map.entry(303, "See Other"),
            Map.entry(304, "Not Modified"),
            Map.entry(307, "Temporary Redirect"),
            Map.entry(308, "Permanent Redirect"),
            Map.entry(400, "Bad Request"),
            Map.entry(401, "Unauthorized"),
            Map.entry(402, "Payment Required"),
            Map.entry(403, "Forbidden"),
            Map.entry(404, "Not Found"),
            Map.entry(405, "Method Not Allowed"),
            Map.entry(406, "Not Acceptable"),
            Map.entry(407, "Proxy Authentication Required"),
            Map.entry(408, "Request Timeout"),
            Map.entry(409, "Conflict"),
            Map.entry(410, "Gone"),
            Map.entry(411, "Length Required"),
            Map.entry(412, "Precondition Failed"),
            Map.entry(413, "Content Too Large"),
            Map.entry(414, "URI Too Long"),
            Map.entry(415, "Unsupported Media Type"),
            Map.entry(416, "Range Not Satisfiable"),
            Map.entry(417, "Expectation Failed"),
            Map.entry(418, "I'm a teapot"),
            Map.entry(421, "Misdirected Request"),
            Map.entry(422, "Unprocessable Content"),
            Map.entry(423, "Locked"),
            Map.entry(424, "Failed Dependency"),
            Map.entry(425, "Too Early"),
            Map.entry(426, "Upgrade Required"),
            Map.entry(428, "Precondition Required"),
            Map.entry(429, "Too Many Requests"),
            Map.entry(431, "Request Header Fields Too Large"),
            Map.entry(451, "Unavailable For Legal Reasons"),
            Map.entry(499, "Client Closed Request"),
            Map.entry(500, "Internal Server Error"),
            Map.entry(501, "Not Implemented"),
            Map.entry(502, "Bad Gateway"),
            Map.entry(503, "Service Unavailable"),
            Map.entry(504, "Gateway Timeout"),
            Map.entry(505, "HTTP Version Not Supported"),
            Map.entry(507, "Insufficient Storage"),
            Map.entry(508, "Loop Detected"),
            Map.entry(511, "Network Authentication Required"),
            Map.entry(520, "Web Server Returned an Unknown Error"),
            Map.entry(521, "Web Server Is Down"),
            Map.entry(522, "Connection Timed Out"),
            Map.entry(523, "Origin Is Unreachable"),
            Map.entry(524, "A Timeout Occurred"),
            Map.entry(525, "SSL Handshake Failed"),
            Map.entry(526, "Invalid SSL Certificate"),
            Map.entry(529, "Overloaded"));

    private HttpReasonPhrases() {}

    /**
     * The reason phrase for a status: the table's, else the server's own phrase when it sent one, else a generic
     * {@code Client Error} / {@code Server Error} / {@code HTTP Error}.
     */
    public static String of(int status, String serverPhrase) {
        String known = PHRASES.get(status);
        if (known != null) {
            return known;
        }
        if (serverPhrase != null && !serverPhrase.isBlank()) {
            return serverPhrase.strip();
        }
        if (status >= 400 && status < 500) {
            return "Client Error";
        }
        return status >= 500 && status < 600 ? "Server Error" : "HTTP Error";
    }
}
