package dev.rebound.ui;

import mockwebserver3.MockResponse;

/** The provider's "overloaded" answer (HTTP 529), for UI tests of retry chains. */
public final class Overloaded {
    private Overloaded() {}

    /** A 529 with these response headers, as name/value pairs (e.g. {@code "retry-after", "30"}). */
    public static MockResponse response(String... headers) {
        MockResponse.Builder b = new MockResponse.Builder()
                .code(529)
                .addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
        for (int i = 0; i < headers.length; i += 2) {
            b.addHeader(headers[i], headers[i + 1]);
        }
        return b.build();
    }
}
