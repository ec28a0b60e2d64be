package dev.rebound.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** The tests' client of a {@link SimulatorServer} over loopback: posts JSON, reads JSON bodies and SSE frames. */
final class SimulatorClient implements AutoCloseable {
    /** The instant the tests' servers stamp their replies with. */
    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    /** A clock stopped at {@link #NOW}. */
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String origin;

    /** A client of the server on {@code port} of 127.0.0.1. */
    SimulatorClient(int port) {
        this.origin = "http://127.0.0.1:" + port;
    }

    /** One response, its body read whole. */
    record Reply(int status, java.net.http.HttpHeaders headers, String body) {
        /** A header's value, or null. */
        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /** The body as JSON. */
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The body as server-sent events. */
        List<Sse> events() {
            return SimulatorClient.events(body);
        }
    }

    /**
     * The server-sent events in {@code text}, whatever its line ends: each {@code data:} line with the {@code event:}
     * name before it, if any. Other lines (chunk sizes of a raw chunked body, headers) are skipped.
     */
    static List<Sse> events(String text) {
        List<Sse> events = new ArrayList<>();
        String name = null;
        for (String line : text.split("\r?\n")) {
            if (line.startsWith("event: ")) {
                name = line.substring(7);
            } else if (line.startsWith("data: ")) {
                events.add(new Sse(name, line.substring(6)));
                name = null;
            }
        }
        return events;
    }

    /** One server-sent event: its {@code event:} name (or null) and its data. */
    record Sse(String event, String data) {
        /** The data as JSON. */
        JsonNode json() {
            try {
                return JSON.readTree(data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Posts {@code json} to {@code path} with the headers given as name, value, name, value… */
    Reply post(String path, String json, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(origin + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build());
    }

    /** A GET of {@code path}. */
    Reply get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(origin + path)).build());
    }

    private Reply send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.headers(), response.body());
    }

    @Override
    public void close() {
        http.close();
    }
}
