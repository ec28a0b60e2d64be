package dev.rebound.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.provider.openai.ChatCompletionsWire;
import dev.rebound.retry.Classification;
import dev.rebound.retry.ClassifierInput;
import dev.rebound.retry.ErrorClassifier;
import dev.rebound.settings.LimitSettings;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import java.util.Map;
import mockwebserver3.MockResponse;
import okio.Buffer;
import okio.GzipSink;
import okio.Okio;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, defect 2: a provider cannot make Rebound read without bound. A runaway reply, one endless stream line and a
 * compression bomb each stop at their {@code limits} setting with a clear error that is not retried.
 */
class ReplyLimitsTest {
    private static final LimitSettings SMALL = new LimitSettings(1_000, 64 * 1024, 1024 * 1024);

    private final WireFixture fixture = new WireFixture(
            new ChatCompletionsWire(), ProviderApi.OPENAI_COMPLETIONS, "sk-limits-0123456789", Map.of());

    @AfterEach
    void close() {
        fixture.close();
    }

    private AssistantMessage stream() {
        ProviderConfig config = fixture.config(fixture.baseUrl("/v1"), "gpt-4.1");
        return fixture.stream(fixture.request(config, "gpt-4.1").withLimits(SMALL))
                .message();
    }

    private static String chunk(String text) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]}\n\n";
    }

    private static Classification classify(AssistantMessage message) {
        return new ErrorClassifier().classify(new ClassifierInput(message, message.api(), false));
    }

    @Test
    void aReplyLongerThanMaxReplyCharsStopsThereWithATerminalError() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            body.append(chunk("0123456789"));
        }
        fixture.enqueue(WireFixture.eventStream(body.toString()));

        AssistantMessage message = stream();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.TOO_LARGE);
        assertThat(message.errorMessage())
                .startsWith("The reply is longer than limits.maxReplyChars (1,000 characters); Rebound stopped "
                        + "reading it after 1,010 characters.");
        assertThat(message.text()).hasSize(1_010);
        assertThat(classify(message).verdict()).isEqualTo(Classification.Verdict.TERMINAL);
    }

    @Test
    void aHugeErrorBodyWithoutLineBreaksIsReadUpToItsCapAndQuotedNotCalledAStreamLine() {
        // Found by the fault suite (issue 18): an error body is read up to 64 KiB, the smallest maxEventBytes; a
        // one-line body of that size tripped the stream-line limit and the error said "the error body could not be
        // read: … stream line longer than limits.maxEventBytes" instead of quoting the body.
        fixture.enqueue(new MockResponse.Builder()
                .code(500)
                .addHeader("Content-Type", "text/plain")
                .body("Internal error " + "e".repeat(200 * 1024))
                .throttleBody(5_000, 1, java.util.concurrent.TimeUnit.MILLISECONDS) // reads that pass 64 KiB
                .build());

        AssistantMessage message = stream();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.HTTP);
        assertThat(message.failure().httpStatus()).isEqualTo(500);
        assertThat(message.errorMessage()).doesNotContain("could not be read").contains("Internal error eee");
    }

    @Test
    void aFailureReadToItsEndKeepsItsConnectionForTheRetryOneCutShortClosesIt() throws Exception {
        // A call that fails before its body's end is cancelled, so that OkHttp does not read on to keep the connection
        // (the fault suite's 200 MB error body: over 100 MB read in that time). A small error body read whole keeps it.
        fixture.enqueue(WireFixture.error(529, "{\"error\":{\"message\":\"Overloaded\"}}"));
        fixture.enqueue(WireFixture.eventStream(chunk("ok") + "data: [DONE]\n\n"));
        fixture.enqueue(WireFixture.eventStream(chunk("x".repeat(300 * 1024))));
        fixture.enqueue(WireFixture.eventStream(chunk("ok") + "data: [DONE]\n\n"));

        assertThat(stream().failure().kind()).isEqualTo(FailureKind.HTTP);
        assertThat(stream().text()).isEqualTo("ok");
        assertThat(stream().failure().kind()).isEqualTo(FailureKind.TOO_LARGE);
        assertThat(stream().text()).isEqualTo("ok");

        int[] connections = new int[4];
        for (int i = 0; i < 4; i++) {
            connections[i] = fixture.takeRequest().getConnectionIndex();
        }
        assertThat(connections[1]).as("after a whole error body").isEqualTo(connections[0]);
        assertThat(connections[3]).as("after a body cut short").isNotEqualTo(connections[2]);
    }

    @Test
    void aStreamLineLongerThanMaxEventBytesStopsReading() {
        fixture.enqueue(WireFixture.eventStream(chunk("x".repeat(300 * 1024))));

        AssistantMessage message = stream();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.TOO_LARGE);
        assertThat(message.errorMessage())
                .startsWith("The server sent a stream line longer than limits.maxEventBytes (65,536 bytes)");
        assertThat(classify(message).verdict()).isEqualTo(Classification.Verdict.TERMINAL);
    }

    @Test
    void aCompressionBombStopsAtMaxResponseBytesAfterDecompressionAndIsNotCalledAConnectionLoss() throws Exception {
        Buffer gzipped = new Buffer();
        try (var sink = Okio.buffer(new GzipSink(gzipped))) {
            String line = chunk("0");
            for (int i = 0; i < 200_000; i++) {
                sink.writeUtf8(line);
            }
        }
        assertThat(gzipped.size()).as("small on the wire").isLessThan(512 * 1024);
        fixture.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .addHeader("Content-Encoding", "gzip")
                .body(gzipped)
                .build());

        AssistantMessage message = fixture.stream(
                        fixture.request(fixture.config(fixture.baseUrl("/v1"), "gpt-4.1"), "gpt-4.1")
                                .withLimits(new LimitSettings(10_000_000, 64 * 1024, 1024 * 1024)))
                .message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.TOO_LARGE);
        assertThat(message.errorMessage())
                .startsWith("The response is larger than limits.maxResponseBytes (1,048,576 bytes after "
                        + "decompression)");
        assertThat(classify(message).verdict()).isEqualTo(Classification.Verdict.TERMINAL);
    }
}
