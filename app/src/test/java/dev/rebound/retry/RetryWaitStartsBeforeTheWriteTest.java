package dev.rebound.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.MessageEnd;
import dev.rebound.history.MessageEntry;
import dev.rebound.session.HistorySink;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.StopReason;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A retry's wait starts when the engine decides, and the failed reply's write (an fsync, slow on a slow disk) comes
 * after that decision, so it passes inside the wait instead of adding to it; the chat's file and the events keep their
 * order: the reply first, then the retry.
 */
class RetryWaitStartsBeforeTheWriteTest {
    private final List<String> order = new CopyOnWriteArrayList<>();

    private final HistorySink sink = entry -> {
        if (entry instanceof MessageEntry m && m.message() instanceof AssistantMessage reply) {
            order.add("written " + reply.stopReason());
        } else {
            order.add("written " + entry.type());
        }
    };

    private RetryTimer recording(RetryTimer timer) {
        return delayMs -> {
            order.add("wait of " + delayMs + " ms started");
            return timer.start(delayMs);
        };
    }

    @Test
    void theWaitStartsBeforeTheFailedReplyIsWrittenAndTheFileKeepsItsOrder() throws Exception {
        try (EngineHarness h = new EngineHarness(
                        ModelFallback.NONE, new EngineHarness.FixedRandom(0.5, 0), this::recording, sink)
                .script(EngineHarness.overloaded(), EngineHarness.ok("fine"))) {
            h.prompt("hi");

            List<String> aroundTheFailure = order.subList(order.indexOf("written message") + 1, order.size());
            assertThat(aroundTheFailure)
                    .startsWith(
                            "wait of " + h.timer.delays().getFirst() + " ms started",
                            "written error",
                            "written retried")
                    .contains("written stop");
            assertThat(h.shape())
                    .containsSubsequence("user", "reply", "agent_end", "auto_retry_start", "agent_start", "reply");
            MessageEnd failedEnd = h.all(MessageEnd.class).get(1);
            assertThat(failedEnd.message())
                    .isInstanceOfSatisfying(
                            AssistantMessage.class,
                            m -> assertThat(m.stopReason()).isEqualTo(StopReason.ERROR));
            assertThat(h.events.indexOf(failedEnd))
                    .isLessThan(h.events.indexOf(h.all(AutoRetryStart.class).getFirst()));
        }
    }

    @Test
    void aReplyThatEndsTheTurnIsWrittenBeforeTheTurnEnds() throws Exception {
        try (EngineHarness h = new EngineHarness(
                        ModelFallback.NONE, new EngineHarness.FixedRandom(0.5, 0), this::recording, sink)
                .script(EngineHarness.ok("fine"))) {
            h.prompt("hi");

            assertThat(order).containsExactly("written message", "written stop");
            assertThat(h.shape()).endsWith("reply", "agent_end");
        }
    }

    /** A sink that throws an {@link Error} once, at the first reply with the given stop reason. */
    private static HistorySink failingAt(StopReason reason) {
        java.util.concurrent.atomic.AtomicBoolean thrown = new java.util.concurrent.atomic.AtomicBoolean();
        return entry -> {
            if (entry instanceof MessageEntry m
                    && m.message() instanceof AssistantMessage reply
                    && reply.stopReason() == reason
                    && thrown.compareAndSet(false, true)) {
                throw new OutOfMemoryError("test: writing the reply failed");
            }
        };
    }

    @Test
    void aFailedReplyThatCannotBeWrittenAfterItsRetryWasDecidedClosesTheChainItAnnounced() throws Exception {
        try (EngineHarness h = new EngineHarness(
                        ModelFallback.NONE, new EngineHarness.FixedRandom(0.5, 0), t -> t, failingAt(StopReason.ERROR))
                .script(EngineHarness.overloaded())) {
            h.prompt("hi");

            assertThat(h.requests).hasSize(1);
            assertThat(h.all(AutoRetryStart.class))
                    .singleElement()
                    .satisfies(s -> assertThat(s.attempt()).isEqualTo(1));
            assertThat(h.all(dev.rebound.event.AutoRetryEnd.class))
                    .singleElement()
                    .satisfies(e -> {
                        assertThat(e.success()).isFalse();
                        assertThat(e.attempt())
                                .as("the retry announced was never made")
                                .isZero();
                    });
            assertThat(h.all(dev.rebound.event.RetryChainEnd.class))
                    .singleElement()
                    .satisfies(c -> assertThat(c.attempts()).hasSize(1));
            assertThat(h.shape())
                    .endsWith("auto_retry_start", "auto_retry_end", "retry_chain_end", "notice", "agent_end");
            assertThat(h.engine.status().retrying()).isFalse();
        }
    }

    @Test
    void aSuccessfulRetryWhoseReplyCannotBeWrittenStillEndsItsChain() throws Exception {
        try (EngineHarness h = new EngineHarness(
                        ModelFallback.NONE, new EngineHarness.FixedRandom(0.5, 0), t -> t, failingAt(StopReason.STOP))
                .script(EngineHarness.overloaded(), EngineHarness.ok("fine"))) {
            h.prompt("hi");

            assertThat(h.all(dev.rebound.event.AutoRetryEnd.class))
                    .singleElement()
                    .satisfies(e -> assertThat(e.success()).isTrue());
            assertThat(h.all(dev.rebound.event.RetryChainEnd.class)).hasSize(1);
            assertThat(h.shape()).endsWith("auto_retry_end", "retry_chain_end", "notice", "agent_end");
        }
    }

    @Test
    void aRetriedMarkThatCannotBeWrittenStillAnnouncesAndClosesTheChain() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean thrown = new java.util.concurrent.atomic.AtomicBoolean();
        HistorySink failingMark = entry -> {
            if (entry instanceof dev.rebound.history.RetriedMark mark
                    && mark.retried()
                    && thrown.compareAndSet(false, true)) {
                throw new OutOfMemoryError("test: writing the retried mark failed");
            }
        };
        try (EngineHarness h = new EngineHarness(
                        ModelFallback.NONE, new EngineHarness.FixedRandom(0.5, 0), t -> t, failingMark)
                .script(EngineHarness.overloaded())) {
            h.prompt("hi");

            assertThat(h.requests).hasSize(1);
            assertThat(h.all(AutoRetryStart.class)).hasSize(1);
            assertThat(h.all(dev.rebound.event.AutoRetryEnd.class))
                    .singleElement()
                    .satisfies(e -> assertThat(e.attempt()).isZero());
            assertThat(h.shape())
                    .endsWith("auto_retry_start", "auto_retry_end", "retry_chain_end", "notice", "agent_end");
        }
    }

    @Test
    void aTurnInterruptedInItsWaitCountsOnlyTheRetriesMade() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Thread> sessionThread =
                new java.util.concurrent.atomic.AtomicReference<>();
        try (EngineHarness h = new EngineHarness(
                        ModelFallback.NONE,
                        new EngineHarness.FixedRandom(0.5, 0),
                        timer -> delayMs -> {
                            sessionThread.set(Thread.currentThread());
                            return timer.start(delayMs);
                        },
                        HistorySink.NONE)
                .script(EngineHarness.overloaded(), EngineHarness.overloaded())) {
            h.timer.hold();
            var turn = h.promptAsync("hi");
            h.timer.nextWaiting().elapse();
            h.timer.nextWaiting();
            sessionThread.get().interrupt();
            turn.completion().get(10, java.util.concurrent.TimeUnit.SECONDS);

            assertThat(h.requests).hasSize(2);
            assertThat(h.all(dev.rebound.event.AutoRetryEnd.class))
                    .singleElement()
                    .satisfies(e ->
                            assertThat(e.attempt()).as("one retry was made").isEqualTo(1));
        }
    }

    /** A timer that throws at its n-th start (1-based). */
    private static java.util.function.UnaryOperator<RetryTimer> throwingAt(int n) {
        java.util.concurrent.atomic.AtomicInteger starts = new java.util.concurrent.atomic.AtomicInteger();
        return timer -> delayMs -> {
            if (starts.incrementAndGet() == n) {
                throw new IllegalStateException("test: the timer failed");
            }
            return timer.start(delayMs);
        };
    }

    @Test
    void aDecisionThatFailsOnTheFirstFailureStartsNoChain() throws Exception {
        try (EngineHarness h = new EngineHarness(
                        ModelFallback.NONE, new EngineHarness.FixedRandom(0.5, 0), throwingAt(1), HistorySink.NONE)
                .script(EngineHarness.overloaded())) {
            h.prompt("hi");

            assertThat(h.requests).hasSize(1);
            assertThat(h.types()).doesNotContain("auto_retry_start", "auto_retry_end", "retry_chain_end");
            assertThat(h.shape()).endsWith("reply", "notice", "agent_end");
            assertThat(h.engine.status().retrying()).isFalse();
        }
    }

    @Test
    void aDecisionThatFailsLaterInAChainEndsItWithTheRetriesMadeRecordedOnce() throws Exception {
        try (EngineHarness h = new EngineHarness(
                        ModelFallback.NONE, new EngineHarness.FixedRandom(0.5, 0), throwingAt(2), HistorySink.NONE)
                .script(EngineHarness.overloaded(), EngineHarness.overloaded())) {
            h.prompt("hi");

            assertThat(h.requests).hasSize(2);
            assertThat(h.all(AutoRetryStart.class)).hasSize(1);
            assertThat(h.all(dev.rebound.event.AutoRetryEnd.class))
                    .singleElement()
                    .satisfies(e -> assertThat(e.attempt()).isEqualTo(1));
            assertThat(h.all(dev.rebound.event.RetryChainEnd.class))
                    .singleElement()
                    .satisfies(c -> assertThat(c.attempts())
                            .extracting(dev.rebound.event.RetryAttempt::attempt)
                            .containsExactly(0, 1));
        }
    }
}
