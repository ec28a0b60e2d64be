package dev.rebound.provider.openai;

import static dev.rebound.provider.openai.CompletionsFixture.eventStream;
import static dev.rebound.provider.openai.CompletionsFixture.finish;
import static dev.rebound.provider.openai.CompletionsFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.provider.CallControl;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import java.net.ServerSocket;
import mockwebserver3.MockResponse;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Streams that break: error objects, cut connections, missing terminal signals, garbage. */
class OpenAiCompletionsStreamFailureTest {
    private CompletionsFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new CompletionsFixture();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void anErrorObjectInsideTheStreamIsAStreamErrorThatKeepsTheContent() {
        fixture.enqueue(eventStream(text("Partial"), """
                {"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}"""));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.errorMessage())
                .isEqualTo("The provider reported an error mid-stream: The server had an "
                        + "error while processing your request. Sorry about that! (type: server_error)");
        assertThat(message.failure().kind()).isEqualTo(FailureKind.STREAM_ERROR);
        assertThat(message.failure().httpStatus()).isNull();
        assertThat(message.failure().errorType()).isEqualTo("server_error");
        assertThat(message.failure().header("x-request-id")).isEqualTo("req_stream");
        assertThat(message.content()).containsExactly(new ContentBlock.Text("Partial"));
        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT);
    }

    @Test
    void openRouterMidStreamErrorKeepsItsNumericCodeAsText() {
        fixture.enqueue(eventStream("""
                {"id":"gen-1764583200-abc","object":"chat.completion.chunk","created":1764583200,"model":"google/gemini-2.5-pro","provider":"Google","error":{"code":502,"message":"Provider returned error","metadata":{"raw":"upstream disconnected","provider_name":"Google"}},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error","native_finish_reason":"error"}]}"""));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.errorMessage())
                .isEqualTo("The provider reported an error mid-stream: Provider returned "
                        + "error (upstream Google: upstream disconnected) (code: 502)");
        assertThat(message.failure().kind()).isEqualTo(FailureKind.STREAM_ERROR);
        assertThat(message.failure().httpStatus()).isNull();
        assertThat(message.failure().errorCode()).isEqualTo("502");
        assertThat(message.stopDetails()).isNull();
    }

    @Test
    void aStreamThatEndsWithoutFinishReasonOrDoneIsTruncatedNotComplete() {
        fixture.enqueue(eventStream(text("Hello"), text(" wor")));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.TRUNCATED);
        assertThat(message.errorMessage())
                .isEqualTo("The stream ended before the reply was complete "
                        + "(no finish_reason or [DONE] received); 9 characters had arrived");
        assertThat(message.text()).isEqualTo("Hello wor");
        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT);
        assertThat(message.hasObservableOutput()).isTrue();
    }

    @Test
    void theCharactersOfATruncatedStreamIncludeTextHeldBackAsAPossibleKeyPrefix() {
        // The key starts with "sk-": a reply cut right after "as" holds the "s" back until the stream ends.
        fixture.enqueue(eventStream(text("Hello"), text(" as")));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.errorMessage()).endsWith("; 8 characters had arrived");
        assertThat(message.text()).isEqualTo("Hello as");
    }

    @Test
    void anEmptyStreamIsTruncatedWithoutObservableOutput() {
        fixture.enqueue(eventStream());

        AssistantMessage message = fixture.stream().message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.TRUNCATED);
        assertThat(message.errorMessage()).endsWith("; 0 characters had arrived");
        assertThat(message.stopDetails()).isNull();
        assertThat(message.hasObservableOutput()).isFalse();
    }

    @Test
    void anEventThatIsNotJsonIsAProtocolError() {
        fixture.enqueue(eventStream(text("Hi"), "{\"choices\":[{\"delta\":{\"content\":\"oops\"}"));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.PROTOCOL);
        assertThat(message.errorMessage())
                .startsWith("The server sent a stream event that is not valid JSON (")
                .endsWith("): {\"choices\":[{\"delta\":{\"content\":\"oops\"}");
        assertThat(message.text()).isEqualTo("Hi");
    }

    @Test
    void aConnectionCutMidStreamKeepsTheTextAndSaysContentWasShown() {
        String padding = ": " + "x".repeat(8_000) + "\n\n";
        fixture.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .body(CompletionsFixture.sse(text("Hello")) + padding + CompletionsFixture.sse(finish("stop")))
                .onResponseBody(new SocketEffect.CloseSocket(true, false, false))
                .build());

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.TRANSPORT);
        assertThat(message.errorMessage()).startsWith("Connection lost while streaming after 5 characters (");
        assertThat(message.text()).isEqualTo("Hello");
        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT);
    }

    @Test
    void aConnectionResetBeforeTheHeadersIsATransportError() {
        fixture.enqueue(new MockResponse.Builder()
                .onResponseStart(new SocketEffect.CloseSocket(true, false, false))
                .build());

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.TRANSPORT);
        assertThat(message.failure().httpStatus()).isNull();
        assertThat(message.errorMessage()).startsWith("Connection reset before the response headers arrived (");
        assertThat(message.hasObservableOutput()).isFalse();
    }

    @Test
    void aRefusedConnectionNamesTheAddress() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }

        AssistantMessage message = fixture.stream(
                        fixture.request("http://127.0.0.1:" + closedPort + "/v1", null, CompletionsFixture.QUICK),
                        new CallControl())
                .message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.TRANSPORT);
        assertThat(message.errorMessage())
                .startsWith(
                        "Connection failed: connection refused by 127.0.0.1:" + closedPort + " (ConnectException: ");
    }
}
