package dev.rebound.provider.openai;

import static dev.rebound.provider.openai.CompletionsFixture.finish;
import static dev.rebound.provider.openai.CompletionsFixture.sse;
import static dev.rebound.provider.openai.CompletionsFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.provider.CallControl;
import dev.rebound.provider.StreamListener;
import dev.rebound.settings.TimeoutSettings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** First-byte and idle timeouts, and aborts: all must end the call promptly and keep what arrived. */
class OpenAiCompletionsTimeoutAndAbortTest {
    private static final String FIRST_EVENT = sse(text("Hello"));

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
    void aStreamThatStallsAfterSomeTextTimesOutAndKeepsTheText() {
        fixture.enqueue(streamPausingAfterFirstEvent(Duration.ofSeconds(2)));

        long started = System.nanoTime();
        AssistantMessage message = stream(new TimeoutSettings(1_000, 1_000, 300), new CallControl());

        assertThat(elapsedMs(started)).isLessThan(1_000);
        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.TIMEOUT);
        assertThat(message.errorMessage())
                .isEqualTo("Stream stalled: no data for 300 ms (timeouts.idleMs); 5 characters had arrived");
        assertThat(message.text()).isEqualTo("Hello");
        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT);
    }

    @Test
    void aBodyThatNeverStartsAfterTheHeadersTimesOutAsAStall() {
        fixture.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .bodyDelay(2, TimeUnit.SECONDS)
                .body(sse(text("late"), finish("stop")))
                .build());

        long started = System.nanoTime();
        AssistantMessage message = stream(new TimeoutSettings(1_000, 1_000, 300), new CallControl());

        assertThat(elapsedMs(started)).isLessThan(1_000);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.TIMEOUT);
        assertThat(message.errorMessage())
                .isEqualTo("Stream stalled: no data for 300 ms (timeouts.idleMs); 0 characters had arrived");
        assertThat(message.hasObservableOutput()).isFalse();
    }

    @Test
    void headersThatNeverArriveHitTheFirstByteTimeout() {
        fixture.enqueue(new MockResponse.Builder()
                .headersDelay(2, TimeUnit.SECONDS)
                .addHeader("Content-Type", "text/event-stream")
                .body(sse(text("late"), finish("stop")))
                .build());

        long started = System.nanoTime();
        AssistantMessage message = stream(new TimeoutSettings(1_000, 300, 1_000), new CallControl());

        assertThat(elapsedMs(started)).isLessThan(1_000);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.TIMEOUT);
        assertThat(message.errorMessage())
                .isEqualTo("Request timed out: no response from the server within 300 ms (timeouts.firstByteMs)");
    }

    @Test
    void aSlowButSteadyStreamLongerThanTheIdleLimitCompletes() {
        String body = sse(text("a"), text("b"), text("c"), finish("stop"), "[DONE]");
        fixture.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .body(body)
                .throttleBody(body.length() / 8, 60, TimeUnit.MILLISECONDS)
                .build());

        long started = System.nanoTime();
        AssistantMessage message = stream(new TimeoutSettings(1_000, 1_000, 200), new CallControl());

        assertThat(elapsedMs(started)).isGreaterThan(200);
        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.text()).isEqualTo("abc");
    }

    @Test
    void anAbortDuringASlowStreamReturnsPromptlyWithTheTextSoFar() {
        fixture.enqueue(streamPausingAfterFirstEvent(Duration.ofSeconds(5)));
        CallControl control = new CallControl();
        AtomicLong abortedAt = new AtomicLong();
        StreamListener abortAfterFirstDelta = new StreamListener() {
            @Override
            public void onTextDelta(String delta) {
                Thread.ofPlatform().daemon().start(() -> {
                    sleepQuietly(100);
                    abortedAt.set(System.nanoTime());
                    control.abort();
                });
            }

            @Override
            public void onThinkingDelta(String delta) {}
        };

        AssistantMessage message = fixture.provider.stream(
                fixture.request(fixture.baseUrl(), null, new TimeoutSettings(1_000, 10_000, 10_000)),
                abortAfterFirstDelta,
                control);

        assertThat(abortedAt.get()).isNotZero();
        assertThat(elapsedMs(abortedAt.get())).isLessThan(500);
        assertThat(message.stopReason()).isEqualTo(StopReason.ABORTED);
        assertThat(message.errorMessage()).isEqualTo("Request was aborted");
        assertThat(message.text()).isEqualTo("Hello");
        assertThat(message.failure()).isNull();
    }

    @Test
    void aCallAbortedBeforeItStartsSendsNothing() {
        CallControl control = new CallControl();
        control.abort();

        AssistantMessage message = stream(CompletionsFixture.QUICK, control);

        assertThat(message.stopReason()).isEqualTo(StopReason.ABORTED);
        assertThat(message.errorMessage()).isEqualTo("Request was aborted");
        assertThat(message.content()).isEmpty();
        assertThat(fixture.server.getRequestCount()).isZero();
    }

    /** The first event at once, then nothing for {@code pause}, then the rest. */
    private static MockResponse streamPausingAfterFirstEvent(Duration pause) {
        return new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .body(FIRST_EVENT + sse(text(" world"), finish("stop"), "[DONE]"))
                .throttleBody(FIRST_EVENT.length(), pause.toMillis(), TimeUnit.MILLISECONDS)
                .build();
    }

    private AssistantMessage stream(TimeoutSettings timeouts, CallControl control) {
        return fixture.stream(fixture.request(fixture.baseUrl(), null, timeouts), control)
                .message();
    }

    private static long elapsedMs(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
