package dev.rebound.provider.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.transcript.StopReason;
import mockwebserver3.MockResponse;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.Test;

/**
 * A server that closes a kept-alive connection while it is idle (Node's default is 5 s, many proxies less): the next
 * request goes out on the pooled connection and finds it closed before any byte of a response. That request never
 * reached the server, so it is sent again at once on a fresh connection, invisibly, once (issue 18, defect 1).
 */
class StaleConnectionTest extends WithCompletionsFixture {

    /** A streamed answer after which the server closes the connection it had kept alive. */
    private static MockResponse answerThenCloseTheIdleConnection(String text) {
        MockResponse answer = CompletionsFixture.eventStream(
                CompletionsFixture.text(text), CompletionsFixture.finish("stop"), "[DONE]");
        return answer.newBuilder()
                .onResponseEnd(SocketEffect.ShutdownConnection.INSTANCE)
                .build();
    }

    @Test
    void aRequestOnAConnectionTheServerClosedWhileIdleIsSentAgainOnAFreshOneInvisibly() throws Exception {
        fixture.enqueue(answerThenCloseTheIdleConnection("first"));
        fixture.enqueue(CompletionsFixture.eventStream(
                CompletionsFixture.text("second"), CompletionsFixture.finish("stop"), "[DONE]"));

        assertThat(fixture.stream().message().text()).isEqualTo("first");
        Thread.sleep(200); // the server's close reaches the client's idle pooled connection
        CompletionsFixture.Result second = fixture.stream();

        assertThat(second.message().stopReason())
                .as(String.valueOf(second.message().errorMessage()))
                .isEqualTo(StopReason.STOP);
        assertThat(second.message().text()).isEqualTo("second");
        assertThat(fixture.server.getRequestCount())
                .as("the server saw each prompt once")
                .isEqualTo(2);
    }

    @Test
    void aRequestThatReachedTheServerOnAFreshConnectionIsNotSentAgain() throws Exception {
        fixture.enqueue(new MockResponse.Builder()
                .onResponseStart(new SocketEffect.CloseSocket())
                .build());
        fixture.enqueue(CompletionsFixture.eventStream(
                CompletionsFixture.text("never"), CompletionsFixture.finish("stop"), "[DONE]"));

        CompletionsFixture.Result result = fixture.stream();

        assertThat(result.message().stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(fixture.server.getRequestCount())
                .as("the server got the request: sending it again could make it answer twice")
                .isEqualTo(1);
    }

    @Test
    void aResponseWhoseHeadersCouldNotBeReadOnAReusedConnectionIsNotSentAgain() throws Exception {
        fixture.enqueue(CompletionsFixture.eventStream(
                CompletionsFixture.text("first"), CompletionsFixture.finish("stop"), "[DONE]"));
        fixture.enqueue(new MockResponse.Builder()
                .addHeader("X-Huge", "x".repeat(300 * 1024))
                .body("{}")
                .build());
        fixture.enqueue(CompletionsFixture.eventStream(
                CompletionsFixture.text("never"), CompletionsFixture.finish("stop"), "[DONE]"));

        assertThat(fixture.stream().message().text()).isEqualTo("first");
        CompletionsFixture.Result second = fixture.stream();

        assertThat(second.message().stopReason())
                .as("found by the fault suite: the server answered (with a 300 KiB header), so this was no stale "
                        + "connection, yet the prompt was sent again and the next answer shown")
                .isEqualTo(StopReason.ERROR);
        assertThat(second.message().errorMessage()).contains("response header line longer than 256 KiB");
        assertThat(fixture.server.getRequestCount())
                .as("the server got the request and answered: it must not get it again")
                .isEqualTo(2);
    }
}
