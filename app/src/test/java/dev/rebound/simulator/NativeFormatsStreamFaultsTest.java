package dev.rebound.simulator;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Cuts and stalls in every native format, over real loopback sockets: the same faults as in Chat Completions
 * ({@link SimulatorServerTest}), so a stream ends cleanly without its format's ending, or goes silent with the
 * connection open.
 */
class NativeFormatsStreamFaultsTest {
    private static final int WAIT_MS = 5_000;

    /** A native format: where a stream is asked for, how, how its text reads, and what only its end says. */
    enum Format {
        ANTHROPIC(
                "/v1/messages",
                "{\"model\":\"m\",\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}",
                AnthropicMessagesWireTest::text,
                List.of("content_block_stop", "message_delta", "message_stop")),
        RESPONSES(
                "/v1/responses",
                "{\"model\":\"m\",\"stream\":true,\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
                        + "\"text\":\"%s\"}]}]}",
                ResponsesWireTest::text,
                List.of("response.output_text.done", "response.completed")),
        GEMINI(
                "/v1beta/models/m:streamGenerateContent?alt=sse",
                "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"%s\"}]}]}",
                GeminiWireTest::text,
                List.of("finishReason"));

        final String path;
        final String body;
        final Function<List<SimulatorClient.Sse>, String> text;
        final List<String> endings;

        Format(String path, String body, Function<List<SimulatorClient.Sse>, String> text, List<String> endings) {
            this.path = path;
            this.body = body;
            this.text = text;
            this.endings = endings;
        }
    }

    private final FaultQueue faults = new FaultQueue();
    private SimulatorServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start(Fault fault) throws IOException {
        server = SimulatorServer.start(new SimulatorServer.Config(0, 0, 7), faults);
        faults.append(List.of(FaultStep.any(fault)));
    }

    private Socket post(Format format) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
        socket.setSoTimeout(WAIT_MS);
        byte[] bytes = format.body.formatted("hi").getBytes(UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST " + format.path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + bytes.length + "\r\n\r\n")
                .getBytes(UTF_8));
        out.write(bytes);
        out.flush();
        return socket;
    }

    /** Reads until the text of the stream reaches {@code chars} characters, then until nothing comes for 200 ms. */
    private static String readUntilSilent(Socket socket, Format format, int chars) throws IOException {
        StringBuilder received = new StringBuilder();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        while (format.text.apply(SimulatorClient.events(received.toString())).length() < chars) {
            int n = in.read(buffer);
            if (n < 0) {
                throw new AssertionError("the connection ended early: " + received);
            }
            received.append(new String(buffer, 0, n, UTF_8));
        }
        socket.setSoTimeout(200);
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.append(new String(buffer, 0, n, UTF_8));
            }
            throw new AssertionError("the stalled connection was closed: " + received);
        } catch (SocketTimeoutException silence) {
            return received.toString();
        }
    }

    private void awaitActiveRequests(int count) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (server.activeRequests() != count && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(server.activeRequests()).isEqualTo(count);
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aCutAfterEndsTheStreamCleanlyAfterThatManyCharactersWithoutItsEnding(Format format) throws Exception {
        start(new Fault.CutAfter(25));

        try (SimulatorClient client = new SimulatorClient(server.port())) {
            SimulatorClient.Reply reply = client.post(format.path, format.body.formatted("hi"));

            assertThat(reply.status()).isEqualTo(200);
            assertThat(format.text.apply(reply.events()))
                    .isEqualTo(String.join("", new ReplyComposer(7).reply("hi")).substring(0, 25));
            assertThat(reply.body()).doesNotContain(format.endings);
        }
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aStallSendsThatManyCharactersThenNothingUntilTheClientLeaves(Format format) throws Exception {
        start(new Fault.Stall(40));

        Socket socket = post(format);
        String received = readUntilSilent(socket, format, 40);

        assertThat(format.text.apply(SimulatorClient.events(received))).hasSize(40);
        assertThat(received).doesNotContain(format.endings);
        assertThat(server.activeRequests()).isEqualTo(1);
        socket.close();
        awaitActiveRequests(0);
    }
}
