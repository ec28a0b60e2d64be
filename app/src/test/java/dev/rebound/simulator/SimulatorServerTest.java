package dev.rebound.simulator;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulator's HTTP server over real loopback sockets: stalls, delays, disconnects, concurrency, shutdown. */
class SimulatorServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long WAIT_MS = 5_000;

    private final FaultQueue faults = new FaultQueue();
    private SimulatorServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start(double tokensPerSecond) throws IOException {
        server = SimulatorServer.start(new SimulatorServer.Config(0, tokensPerSecond, 7), faults);
    }

    private static String body(String prompt) {
        return "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}";
    }

    /** Sends a streamed completion request on a plain socket, whose response the test reads (or abandons) itself. */
    private Socket post(String prompt) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
        socket.setSoTimeout((int) WAIT_MS);
        byte[] bytes = body(prompt).getBytes(UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + bytes.length + "\r\n\r\n")
                .getBytes(UTF_8));
        out.write(bytes);
        out.flush();
        return socket;
    }

    /** Reads until the text received so far contains {@code marker}; returns that text. */
    private static String readUntil(Socket socket, String marker) throws IOException {
        StringBuilder text = new StringBuilder();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        while (!text.toString().contains(marker)) {
            int n = in.read(buffer);
            if (n < 0) {
                throw new AssertionError("the connection ended before " + marker + ": " + text);
            }
            text.append(new String(buffer, 0, n, UTF_8));
        }
        return text.toString();
    }

    /** The text of the content deltas in an SSE response. */
    private static String content(String response) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String line : response.lines().toList()) {
            if (line.startsWith("data: {")) {
                JsonNode delta =
                        JSON.readTree(line.substring(6)).path("choices").path(0).path("delta");
                text.append(delta.path("content").asText(""));
            }
        }
        return text.toString();
    }

    private void awaitActiveRequests(int count) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (server.activeRequests() != count && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(server.activeRequests()).isEqualTo(count);
    }

    @Test
    void aStallAfterTextSendsExactlyThatTextThenNothingWhileTheConnectionStaysOpen() throws Exception {
        start(0);
        faults.append(List.of(FaultStep.any(new Fault.Stall(40))));
        try (Socket socket = post("hi")) {
            String received = readUntil(socket, "\"content\":\"");
            socket.setSoTimeout(200);
            StringBuilder rest = new StringBuilder(received);
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = socket.getInputStream().read(buffer)) >= 0; ) {
                    rest.append(new String(buffer, 0, n, UTF_8));
                }
                throw new AssertionError("the stalled connection was closed: " + rest);
            } catch (SocketTimeoutException silence) {
                assertThat(content(rest.toString())).hasSize(40);
                assertThat(rest.toString()).doesNotContain("[DONE]", "finish_reason\":\"stop", "\n: ");
            }
            assertThat(server.activeRequests()).isEqualTo(1);
        }
    }

    @Test
    void closingTheClientReleasesAStalledRequestAtOnce() throws Exception {
        start(0);
        faults.append(List.of(FaultStep.any(new Fault.Stall(10))));
        Socket socket = post("hi");
        readUntil(socket, "\"content\":\"");
        awaitActiveRequests(1);

        socket.close();

        awaitActiveRequests(0);
    }

    @Test
    void closingTheClientEndsADelayBeforeAnyResponse() throws Exception {
        start(0);
        faults.append(List.of(FaultStep.any(new Fault.Delay(3_600_000))));
        Socket socket = post("hi");
        awaitActiveRequests(1);

        socket.close();

        awaitActiveRequests(0);
    }

    @Test
    void aClientLeavingMidStreamEndsTheStream() throws Exception {
        start(20);
        Socket socket = post("Give me a long answer");
        readUntil(socket, "\"content\":\"");
        awaitActiveRequests(1);

        socket.close();

        awaitActiveRequests(0);
    }

    @Test
    void closingTheServerReleasesAStalledRequestAndEndsItsConnection() throws Exception {
        start(0);
        faults.append(List.of(FaultStep.any(new Fault.Stall(10))));
        try (Socket socket = post("hi")) {
            readUntil(socket, "\"content\":\"");

            server.close();

            byte[] buffer = new byte[8192];
            int n;
            do {
                n = socket.getInputStream().read(buffer);
            } while (n >= 0);
            awaitActiveRequests(0);
        }
    }

    @Test
    void twoConcurrentStreamsEachGetTheirWholeReply() throws Exception {
        start(2_000);
        try (HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString(body("What is backoff?")))
                    .build();
            CompletableFuture<HttpResponse<String>> first =
                    http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> second =
                    http.sendAsync(request, HttpResponse.BodyHandlers.ofString());

            String one = first.get().body();
            String two = second.get().body();

            assertThat(one).endsWith("data: [DONE]\n\n");
            assertThat(two).endsWith("data: [DONE]\n\n");
            assertThat(content(one)).startsWith("## ").isEqualTo(content(two));
        }
        awaitActiveRequests(0);
    }

    @Test
    void aPortInUseIsRefusedWithABindError() throws Exception {
        start(0);

        assertThatThrownBy(() -> SimulatorServer.start(new SimulatorServer.Config(server.port(), 0, 1), faults))
                .isInstanceOf(BindException.class);
    }
}
