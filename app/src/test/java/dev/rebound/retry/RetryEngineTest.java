package dev.rebound.retry;

import static dev.rebound.retry.EngineHarness.cutAfter;
import static dev.rebound.retry.EngineHarness.http;
import static dev.rebound.retry.EngineHarness.ok;
import static dev.rebound.retry.EngineHarness.overloaded;
import static dev.rebound.retry.EngineHarness.reasonlessAbort;
import static dev.rebound.retry.EngineHarness.refusal;
import static dev.rebound.retry.EngineHarness.transport;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.AgentEnd;
import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.ErrorKind;
import dev.rebound.event.Notice;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryDecidedBy;
import dev.rebound.event.RetryEndReason;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.session.History;
import dev.rebound.session.PromptResult;
import dev.rebound.session.TurnOutcome;
import dev.rebound.settings.RetrySettings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The retry chain of §3 on a real session: exact event sequences and delays, with an injected clock and timer. */
class RetryEngineTest {
    private static final String OVERLOADED = "529 Overloaded: Overloaded (type: overloaded_error)";
    private EngineHarness h = new EngineHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private static RetrySettings retry(int maxRetries, long maxDelayMs, long maxElapsedMs) {
        RetrySettings d = RetrySettings.DEFAULTS;
        return new RetrySettings(
                true,
                maxRetries,
                d.baseDelayMs(),
                maxDelayMs,
                maxElapsedMs,
                d.modelFallback(),
                d.fallbackChains(),
                d.fallbackRevertPolicy(),
                d.refusalPinMs());
    }

    private static Map<String, String> headers(String... kv) {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void threeOverloadsThenSuccessRetryWithJitteredExponentialBackoffAndEndInSuccess() throws Exception {
        h.script(overloaded(), overloaded(), overloaded(), ok("Finally."));
        TurnOutcome outcome = h.prompt("hi");

        assertThat(outcome.succeeded()).isTrue();
        assertThat(h.shape())
                .containsExactly(
                        "agent_start",
                        "user",
                        "reply",
                        "agent_end",
                        "auto_retry_start",
                        "agent_start",
                        "reply",
                        "agent_end",
                        "auto_retry_start",
                        "agent_start",
                        "reply",
                        "agent_end",
                        "auto_retry_start",
                        "agent_start",
                        "reply",
                        "auto_retry_end",
                        "retry_chain_end",
                        "agent_end");
        assertThat(h.timer.delays()).containsExactly(438L, 875L, 1750L);
        List<AutoRetryStart> starts = h.all(AutoRetryStart.class);
        long t0 = EngineHarness.START.toEpochMilli();
        assertThat(starts)
                .containsExactly(
                        new AutoRetryStart(
                                1, 10, 438, OVERLOADED, ErrorKind.TRANSIENT, "openai/gpt-4.1-mini", "work", t0 + 438),
                        new AutoRetryStart(
                                2,
                                10,
                                875,
                                OVERLOADED,
                                ErrorKind.TRANSIENT,
                                "openai/gpt-4.1-mini",
                                "work",
                                t0 + 438 + 875),
                        new AutoRetryStart(
                                3,
                                10,
                                1750,
                                OVERLOADED,
                                ErrorKind.TRANSIENT,
                                "openai/gpt-4.1-mini",
                                "work",
                                t0 + 438 + 875 + 1750));
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(true, 3, null, RetryEndReason.SUCCEEDED));
        assertThat(h.all(AgentEnd.class)).extracting(AgentEnd::willRetry).containsExactly(true, true, true, false);
        RetryChainEnd record = h.all(RetryChainEnd.class).getFirst();
        assertThat(record.attempts())
                .extracting(
                        RetryAttempt::attempt, RetryAttempt::httpStatus, RetryAttempt::delayMs, RetryAttempt::decidedBy)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, 529, 438L, RetryDecidedBy.BACKOFF),
                        org.assertj.core.groups.Tuple.tuple(1, 529, 875L, RetryDecidedBy.BACKOFF),
                        org.assertj.core.groups.Tuple.tuple(2, 529, 1750L, RetryDecidedBy.BACKOFF));
        assertThat(record.endedAt() - record.startedAt()).isEqualTo(438 + 875 + 1750);
    }

    @Test
    void failedAttemptsLeaveTheContextButStayInHistoryMarkedRetried() throws Exception {
        h.script(overloaded(), overloaded(), ok("Done."));
        h.prompt("hi");
        assertThat(h.session.messages()).extracting(m -> m.role()).containsExactly("user", "assistant");
        assertThat(h.requests).allSatisfy(r -> assertThat(r.context()).hasSize(1));
        assertThat(h.session.history())
                .filteredOn(e -> e instanceof RetriedMark m && m.retried())
                .hasSize(2);
        assertThat(History.retriedIds(h.session.history())).hasSize(2);
        assertThat(h.session.history())
                .filteredOn(e -> e instanceof RetryChainEntry)
                .hasSize(1);
    }

    @Test
    void theBackoffDoublesUpToEightSecondsBeforeJitter() throws Exception {
        for (int i = 0; i < 7; i++) {
            h.script(overloaded());
        }
        h.script(ok("x"));
        h.prompt("hi");
        assertThat(h.timer.delays()).containsExactly(438L, 875L, 1750L, 3500L, 7000L, 7000L, 7000L);
    }

    @Test
    void jitterScalesEachStepBetweenThreeQuartersAndTheFullStep() throws Exception {
        h.close();
        try (EngineHarness low = new EngineHarness(ModelFallback.NONE, new EngineHarness.FixedRandom(0.0, 0));
                EngineHarness high =
                        new EngineHarness(ModelFallback.NONE, new EngineHarness.FixedRandom(0.999999, 0))) {
            for (EngineHarness each : List.of(low, high)) {
                each.script(overloaded(), overloaded(), ok("x"));
                each.prompt("hi");
            }
            assertThat(low.timer.delays()).containsExactly(375L, 750L);
            assertThat(high.timer.delays()).containsExactly(500L, 1000L);
        }
        h = new EngineHarness();
    }

    @Test
    void aRetryAfterHeaderExtendsTheDelay() throws Exception {
        h.script(
                http(
                        429,
                        "Too Many Requests",
                        "Rate limit exceeded",
                        "rate_limit_error",
                        null,
                        headers("retry-after", "3")),
                ok("x"));
        h.prompt("hi");
        assertThat(h.timer.delays()).containsExactly(3000L);
        assertThat(h.all(AutoRetryStart.class).getFirst().errorKind()).isEqualTo(ErrorKind.RATE_LIMIT);
        assertThat(h.all(RetryChainEnd.class).getFirst().attempts())
                .extracting(RetryAttempt::decidedBy)
                .containsExactly(RetryDecidedBy.PROVIDER_HINT);
    }

    @Test
    void aRetryAfterMsHeaderIsUsedToTheMillisecond() throws Exception {
        h.script(
                http(
                        429,
                        "Too Many Requests",
                        "Rate limit exceeded",
                        "rate_limit_error",
                        null,
                        headers("retry-after-ms", "2750", "retry-after", "3")),
                ok("x"));
        h.prompt("hi");
        assertThat(h.timer.delays()).containsExactly(2750L);
    }

    @Test
    void aHintShorterThanTheLocalBackoffNeverShortensIt() throws Exception {
        h.script(
                overloaded(),
                http(503, "Service Unavailable", "busy", null, null, headers("retry-after-ms", "10")),
                ok("x"));
        h.prompt("hi");
        assertThat(h.timer.delays()).containsExactly(438L, 875L);
    }

    @Test
    void aBodyHintPleaseRetryIn47SecondsIsHonoured() throws Exception {
        h.script(
                http(
                        429,
                        "Too Many Requests",
                        "Resource has been exhausted (e.g. check quota). Please retry in " + "47.4s.",
                        "RESOURCE_EXHAUSTED",
                        null,
                        Map.of()),
                ok("x"));
        h.prompt("hi");
        assertThat(h.timer.delays()).containsExactly(47400L);
    }

    @Test
    void theChainIsExhaustedAfterMaxRetriesWithTheOriginalErrorUnchanged() throws Exception {
        h.settings(retry(2, 300_000, 600_000));
        h.script(overloaded(), overloaded(), overloaded());
        TurnOutcome outcome = h.prompt("hi");

        assertThat(outcome.succeeded()).isFalse();
        assertThat(h.requests).hasSize(3);
        assertThat(h.all(AutoRetryStart.class))
                .extracting(AutoRetryStart::attempt, AutoRetryStart::maxAttempts)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, 2), org.assertj.core.groups.Tuple.tuple(2, 2));
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(false, 2, OVERLOADED, RetryEndReason.EXHAUSTED));
        assertThat(h.shape()).endsWith("reply", "auto_retry_end", "retry_chain_end", "agent_end");
        assertThat(h.all(RetryChainEnd.class).getFirst().attempts())
                .extracting(RetryAttempt::delayMs, RetryAttempt::decidedBy)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(438L, RetryDecidedBy.BACKOFF),
                        org.assertj.core.groups.Tuple.tuple(875L, RetryDecidedBy.BACKOFF),
                        org.assertj.core.groups.Tuple.tuple(null, null));
        assertThat(h.session.retryStatus().retrying()).isFalse();
    }

    @Test
    void aWaitLongerThanMaxDelayFailsFastWithoutSleeping() throws Exception {
        h.script(http(
                429,
                "Too Many Requests",
                "Rate limit exceeded",
                "rate_limit_error",
                null,
                headers("retry-after", "600")));
        TurnOutcome outcome = h.prompt("hi");

        assertThat(h.timer.delays()).isEmpty();
        assertThat(h.all(AutoRetryStart.class)).isEmpty();
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(
                        false,
                        0,
                        "Provider requested 600000ms wait, exceeds retry.maxDelayMs (300000ms). Original error: 429 Too Many "
                                + "Requests: Rate limit exceeded (type: rate_limit_error)",
                        RetryEndReason.MAX_DELAY_EXCEEDED));
        assertThat(outcome.succeeded()).isFalse();
    }

    @Test
    void maxDelayZeroDisablesTheFailFast() throws Exception {
        h.settings(retry(10, 0, 0));
        h.script(
                http(
                        429,
                        "Too Many Requests",
                        "Rate limit exceeded",
                        "rate_limit_error",
                        null,
                        headers("retry-after", "600")),
                ok("x"));
        h.prompt("hi");
        assertThat(h.timer.delays()).containsExactly(600_000L);
    }

    @Test
    void theTimeBudgetStopsAChainThatWouldRunPastIt() throws Exception {
        h.settings(retry(10, 300_000, 5_000));
        h.script(
                http(503, "Service Unavailable", "busy", null, null, headers("retry-after", "3")),
                http(503, "Service Unavailable", "still busy", null, null, headers("retry-after", "3")));
        h.prompt("hi");
        assertThat(h.timer.delays()).containsExactly(3000L);
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(
                        false, 1, "503 Service Unavailable: still busy", RetryEndReason.ELAPSED_BUDGET_EXCEEDED));
    }

    @Test
    void cancellingDuringBackoffEndsTheChainAndNoFurtherAttemptStarts() throws Exception {
        h.timer.hold();
        h.script(http(529, "Overloaded", "Overloaded", "overloaded_error", null, headers("retry-after", "10")));
        PromptResult.Accepted turn = h.promptAsync("hi");
        h.timer.nextWaiting();
        assertThat(h.session.retryStatus()).isEqualTo(new dev.rebound.session.RetryStatus(true, 1, true));
        assertThat(h.session.abortRetry()).isEqualTo(dev.rebound.session.RetryCancel.WAIT_CANCELLED);
        TurnOutcome outcome = turn.completion().get(5, TimeUnit.SECONDS);

        assertThat(h.requests).hasSize(1);
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(false, 0, "Retry cancelled", RetryEndReason.CANCELLED));
        assertThat(h.shape())
                .endsWith("agent_end", "auto_retry_start", "auto_retry_end", "retry_chain_end", "agent_end");
        assertThat(h.all(AgentEnd.class)).extracting(AgentEnd::willRetry).containsExactly(true, false);
        assertThat(h.session.messages())
                .as("the failure the user is left with")
                .extracting(m -> m.role())
                .containsExactly("user", "assistant");
        assertThat(outcome.succeeded()).isFalse();
        assertThat(h.session.state().turnRunning()).isFalse();
        assertThat(h.session.retryStatus().retrying()).isFalse();
    }

    @Test
    void abortDuringBackoffCancelsTheRetryFirstAndEndsTheTurn() throws Exception {
        h.timer.hold();
        h.script(overloaded(), overloaded());
        PromptResult.Accepted turn = h.promptAsync("hi");
        h.timer.nextWaiting().elapse();
        h.timer.nextWaiting();
        h.session.abort();
        turn.completion().get(5, TimeUnit.SECONDS);

        assertThat(h.requests).hasSize(2);
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(false, 1, "Retry cancelled", RetryEndReason.ABORTED));
    }

    @Test
    void retryNowStartsThePendingAttemptAtOnceWithTheSameNumber() throws Exception {
        h.timer.hold();
        h.script(
                http(529, "Overloaded", "Overloaded", "overloaded_error", null, headers("retry-after", "30")),
                overloaded(),
                ok("x"));
        PromptResult.Accepted turn = h.promptAsync("hi");
        h.timer.nextWaiting();
        h.session.retryNow();
        h.timer.nextWaiting().elapse();
        turn.completion().get(5, TimeUnit.SECONDS);

        assertThat(h.requests).hasSize(3);
        assertThat(h.all(AutoRetryStart.class))
                .extracting(AutoRetryStart::attempt)
                .containsExactly(1, 2);
        assertThat(h.clock.millis() - EngineHarness.START.toEpochMilli())
                .as("no 30 s were waited")
                .isEqualTo(875);
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(true, 2, null, RetryEndReason.SUCCEEDED));
    }

    /** A reply that signals {@code entered}, then holds the call until {@code release}, then answers {@code reply}. */
    private static java.util.function.Function<
                    dev.rebound.provider.ProviderRequest, dev.rebound.transcript.AssistantMessage>
            heldUntil(
                    java.util.concurrent.CountDownLatch entered,
                    java.util.concurrent.CountDownLatch release,
                    java.util.function.Function<
                                    dev.rebound.provider.ProviderRequest, dev.rebound.transcript.AssistantMessage>
                            reply) {
        return r -> {
            entered.countDown();
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return reply.apply(r);
        };
    }

    @Test
    void cancellingWhileARetrysRequestRunsStartsNoFurtherAttempt() throws Exception {
        java.util.concurrent.CountDownLatch inSecondCall = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);
        h.script(overloaded(), heldUntil(inSecondCall, cancelled, overloaded()), ok("must never be asked for"));
        PromptResult.Accepted turn = h.promptAsync("hi");
        assertThat(inSecondCall.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(h.session.retryStatus().retrying())
                .as("the chain runs while its retry streams")
                .isTrue();
        assertThat(h.session.abortRetry()).isEqualTo(dev.rebound.session.RetryCancel.RUNNING_REQUEST_FLAGGED);
        cancelled.countDown();
        turn.completion().get(5, TimeUnit.SECONDS);
        assertThat(h.session.abortRetry()).as("no chain left").isEqualTo(dev.rebound.session.RetryCancel.NONE);

        assertThat(h.requests).hasSize(2);
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(false, 1, "Retry cancelled", RetryEndReason.CANCELLED));
        assertThat(h.shape()).last().isEqualTo("agent_end");
    }

    @Test
    void aCancelDuringARetrysRequestStillLetsAGoodReplyThrough() throws Exception {
        java.util.concurrent.CountDownLatch inSecondCall = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);
        h.script(overloaded(), heldUntil(inSecondCall, cancelled, ok("made it anyway")));
        PromptResult.Accepted turn = h.promptAsync("hi");
        assertThat(inSecondCall.await(5, TimeUnit.SECONDS)).isTrue();
        h.session.abortRetry();
        cancelled.countDown();
        assertThat(turn.completion().get(5, TimeUnit.SECONDS).succeeded()).isTrue();
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(true, 1, null, RetryEndReason.SUCCEEDED));
    }

    @Test
    void aRetryNowMeantForAnEarlierAttemptIsIgnored() throws Exception {
        h.timer.hold();
        h.script(
                http(529, "Overloaded", "Overloaded", "overloaded_error", null, headers("retry-after", "30")),
                http(529, "Overloaded", "Overloaded", "overloaded_error", null, headers("retry-after", "30")),
                ok("x"));
        PromptResult.Accepted turn = h.promptAsync("hi");
        h.timer.nextWaiting();
        h.session.retryNow(1);
        h.timer.nextWaiting();
        h.session.retryNow(1);
        assertThat(turn.completion())
                .as("the second click was meant for attempt 1")
                .isNotDone();
        assertThat(h.requests).hasSize(2);
        h.session.retryNow(2);
        assertThat(turn.completion().get(5, TimeUnit.SECONDS).succeeded()).isTrue();
        assertThat(h.requests).hasSize(3);
    }

    @Test
    void anInternalErrorDuringAChainLeavesTheBrokenReplyWhereTheRetriedFailureWas() throws Exception {
        h.script(overloaded(), r -> {
            throw new IllegalStateException("a provider bug");
        });
        h.prompt("first");

        assertThat(h.session.messages()).extracting(m -> m.role()).containsExactly("user", "assistant");
        assertThat(h.session.messages())
                .last()
                .isInstanceOfSatisfying(
                        dev.rebound.transcript.AssistantMessage.class,
                        m -> assertThat(m.errorMessage())
                                .isEqualTo("Something went wrong inside Rebound while answering "
                                        + "(IllegalStateException)"));
        List<dev.rebound.transcript.AssistantMessage> replies = h.session.history().stream()
                .filter(e ->
                        e instanceof MessageEntry m && m.message() instanceof dev.rebound.transcript.AssistantMessage)
                .map(e -> (dev.rebound.transcript.AssistantMessage) ((MessageEntry) e).message())
                .toList();
        assertThat(replies).hasSize(2);
        assertThat(History.retriedIds(h.session.history()))
                .as("the 529 was retried; the broken retry is what the turn leaves")
                .containsExactly(replies.getFirst().id());
        RetryChainEntry chain = (RetryChainEntry) h.session.history().stream()
                .filter(RetryChainEntry.class::isInstance)
                .findFirst()
                .orElseThrow();
        assertThat(chain.chain().attempts()).extracting(a -> a.attempt()).containsExactly(0, 1);
    }

    @Test
    void anInternalErrorDuringAChainClosesItSoTheNextTurnStartsClean() throws Exception {
        h.script(
                overloaded(),
                r -> {
                    throw new IllegalStateException("a provider bug");
                },
                overloaded(),
                ok("x"));
        h.prompt("first");
        assertThat(h.session.retryStatus().retrying()).isFalse();
        assertThat(h.all(AutoRetryEnd.class)).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo(RetryEndReason.NOT_RETRYABLE);
            assertThat(e.finalError()).contains("IllegalStateException");
        });
        h.prompt("second");
        assertThat(h.all(AutoRetryStart.class))
                .extracting(AutoRetryStart::attempt)
                .containsExactly(1, 1);
    }

    private static java.util.function.Function<
                    dev.rebound.provider.ProviderRequest, dev.rebound.transcript.AssistantMessage>
            usageLimit(String text) {
        return http(429, "Too Many Requests", text, null, null, Map.of());
    }

    @Test
    void aRepeatedUsageLimitBelievesTheProvidersHintAndDoublesItPerRepeat() throws Exception {
        h.settings(retry(10, 300_000, 0));
        var limit = usageLimit("You have reached your usage limit. Please retry in 1s.");
        h.script(limit, limit, limit, limit, ok("x"));
        TurnOutcome outcome = h.prompt("hi");

        assertThat(outcome.succeeded()).isTrue();
        assertThat(h.timer.delays()).containsExactly(1_000L, 2_000L, 4_000L, 8_000L);
        assertThat(h.all(RetryChainEnd.class).getFirst().attempts())
                .extracting(RetryAttempt::decidedBy)
                .containsOnly(RetryDecidedBy.USAGE_LIMIT);
        assertThat(h.all(AutoRetryEnd.class))
                .singleElement()
                .satisfies(e -> assertThat(e.reason()).isEqualTo(RetryEndReason.SUCCEEDED));
    }

    @Test
    void theDoublingOfARepeatedUsageLimitStopsAtTheReasonsDefault() throws Exception {
        h.settings(retry(10, 0, 0));
        var perMinute = usageLimit("Quota exceeded for requests per minute. Please retry in 20s.");
        h.script(perMinute, perMinute, perMinute, ok("x"));
        h.prompt("hi");

        assertThat(h.timer.delays()).containsExactly(20_000L, 30_000L, 30_000L);
    }

    @Test
    void aHintLongerThanTheReasonsDefaultIsBelievedAsItIsOnARepeat() throws Exception {
        h.settings(retry(10, 0, 0));
        var perMinute = usageLimit("Quota exceeded for requests per minute. Please retry in 45s.");
        h.script(perMinute, perMinute, ok("x"));
        h.prompt("hi");

        assertThat(h.timer.delays()).containsExactly(45_000L, 45_000L);
    }

    @Test
    void usageLimitsOfDifferentCredentialsAreNotRepeatsOfEachOther() throws Exception {
        h.settings(retry(10, 0, 0));
        var limit = usageLimit("You have reached your usage limit. Please retry in 1s.");
        h.script(
                limit,
                r -> {
                    dev.rebound.transcript.AssistantMessage m = limit.apply(r);
                    return new dev.rebound.transcript.AssistantMessage(
                            m.id(),
                            m.content(),
                            m.provider(),
                            m.model(),
                            m.api(),
                            "personal",
                            null,
                            m.stopReason(),
                            m.errorMessage(),
                            m.stopDetails(),
                            m.failure(),
                            0);
                },
                ok("x"));
        h.prompt("hi");

        assertThat(h.timer.delays()).containsExactly(1_000L, 1_000L);
    }

    @Test
    void aRequestLargerThanThePerMinuteLimitEndsTheTurnAtOnceWithAdvice() throws Exception {
        h.script(http(
                429,
                "Too Many Requests",
                "Request too large for gpt-4o in organization org-x on tokens per min "
                        + "(TPM): Limit 30000, Requested 49447. The input or output tokens must be reduced in order to run "
                        + "successfully.",
                "tokens",
                "rate_limit_exceeded",
                Map.of("retry-after", "1")));
        h.prompt("a very long prompt");

        assertThat(h.requests).hasSize(1);
        assertThat(h.types()).doesNotContain("auto_retry_start", "auto_retry_end");
        assertThat(h.all(Notice.class)).singleElement().satisfies(n -> {
            assertThat(n.level()).isEqualTo(Notice.ERROR);
            assertThat(n.message())
                    .contains("larger than the per-minute token limit of openai/gpt-4.1-mini")
                    .contains("Shorten the conversation")
                    .contains("higher limit");
        });
    }

    @Test
    void aModelServerThatCannotLoadTheModelIsNotRetriedAndSaysWhatToDo() throws Exception {
        h.script(http(
                500,
                "Internal Server Error",
                "model requires more system memory (12.3 GiB) than is available " + "(7.1 GiB)",
                "api_error",
                null,
                Map.of()));
        h.prompt("hi");

        assertThat(h.requests).hasSize(1);
        assertThat(h.types()).doesNotContain("auto_retry_start");
        assertThat(h.all(Notice.class))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("cannot run the model (there is not enough memory for it)")
                        .contains("Free memory")
                        .contains("smaller"));
    }

    @Test
    void aDailyQuotaWithoutAHintFailsFastUnderMaxDelayInsteadOfRetryingAfterMilliseconds() throws Exception {
        h.settings(retry(10, 300_000, 600_000));
        h.script(http(
                429,
                "Too Many Requests",
                "Rate limit reached for model x on requests per day (RPD): Limit 1000, " + "Used 1000, Requested 1.",
                "requests",
                "rate_limit_exceeded",
                Map.of()));
        h.prompt("hi");

        assertThat(h.requests).hasSize(1);
        assertThat(h.timer.delays()).isEmpty();
        AutoRetryEnd end = h.all(AutoRetryEnd.class).getFirst();
        assertThat(end.reason()).isEqualTo(RetryEndReason.MAX_DELAY_EXCEEDED);
        assertThat(end.attempt()).isZero();
        assertThat(end.finalError()).startsWith("Rebound would wait 1800000ms for this usage_limit");
    }

    @Test
    void aFailFastOnAWaitTheProviderNeverAskedForSaysSo() throws Exception {
        h.settings(retry(10, 60_000, 0));
        h.script(http(429, "Too Many Requests", "You've hit your usage limit for this plan.", null, null, Map.of()));
        h.prompt("hi");
        assertThat(h.all(AutoRetryEnd.class).getFirst().finalError())
                .startsWith("Rebound would wait 1800000ms for this usage_limit (the provider named no wait), exceeds "
                        + "retry.maxDelayMs (60000ms). Original error: 429 Too Many Requests");
    }

    @Test
    void aFailureAfterStreamedTextIsNeverRetried() throws Exception {
        h.script(cutAfter("Half of the ans"));
        TurnOutcome outcome = h.prompt("hi");
        assertThat(outcome.succeeded()).isFalse();
        assertThat(h.requests).hasSize(1);
        assertThat(h.types()).doesNotContain("auto_retry_start", "auto_retry_end");
        assertThat(h.session.messages()).hasSize(2);
    }

    @Test
    void aFailureAfterStreamedTextInTheMiddleOfAChainEndsItAsNotRetryable() throws Exception {
        h.script(overloaded(), cutAfter("Partial"));
        h.prompt("hi");
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(
                        false,
                        1,
                        "Connection lost while streaming after 7 characters (ProtocolException: unexpected end of stream)",
                        RetryEndReason.NOT_RETRYABLE));
    }

    @Test
    void aRefusalWithNoFallbackEndsQuietlyWithoutAutoRetryStart() throws Exception {
        h.script(refusal());
        h.prompt("hi");
        assertThat(h.requests).hasSize(1);
        assertThat(h.types()).doesNotContain("auto_retry_start", "auto_retry_end");
        assertThat(h.session.retryStatus().retrying()).isFalse();
    }

    @Test
    void aReasonlessAbortIsRetriedButNeverFallsBack() throws Exception {
        h.close();
        AtomicInteger fallbackAsked = new AtomicInteger();
        h = new EngineHarness(countingFallback(fallbackAsked));
        h.script(reasonlessAbort(), ok("x"));
        h.prompt("hi");
        assertThat(h.all(AutoRetryStart.class))
                .extracting(AutoRetryStart::errorKind)
                .containsExactly(ErrorKind.REASONLESS_ABORT);
        assertThat(fallbackAsked).hasValue(0);
        assertThat(h.requests).hasSize(2);
    }

    @Test
    void aTransientFailureAsksTheFallbackPolicy() throws Exception {
        h.close();
        AtomicInteger fallbackAsked = new AtomicInteger();
        h = new EngineHarness(countingFallback(fallbackAsked));
        h.script(overloaded(), ok("x"));
        h.prompt("hi");
        assertThat(fallbackAsked).hasValue(1);
    }

    /** A fallback policy with no chain that counts how often it was asked. */
    private static ModelFallback countingFallback(AtomicInteger asked) {
        return new ModelFallback() {
            @Override
            public java.util.Optional<List<dev.rebound.event.SessionEvent>> apply(
                    dev.rebound.transcript.AssistantMessage f, Classification c, java.util.OptionalLong hint) {
                asked.incrementAndGet();
                return java.util.Optional.empty();
            }

            @Override
            public List<dev.rebound.event.SessionEvent> onSuccess() {
                return List.of();
            }

            @Override
            public List<dev.rebound.event.SessionEvent> revertIfDue(boolean beforePrompt) {
                return List.of();
            }

            @Override
            public void modelChosen() {}

            @Override
            public java.util.Optional<dev.rebound.session.FallbackStatus> status() {
                return java.util.Optional.empty();
            }
        };
    }

    @Test
    void withRetryDisabledNoChainStarts() throws Exception {
        RetrySettings d = RetrySettings.DEFAULTS;
        h.settings(new RetrySettings(
                false, 10, 500, 300_000, 600_000, true, Map.of(), d.fallbackRevertPolicy(), d.refusalPinMs()));
        h.script(overloaded());
        h.prompt("hi");
        assertThat(h.requests).hasSize(1);
        assertThat(h.types()).doesNotContain("auto_retry_start", "auto_retry_end");
    }

    @Test
    void aSettingsChangeBetweenTwoAttemptsAppliesToTheNextDecision() throws Exception {
        h.timer.hold();
        h.script(overloaded(), overloaded(), ok("x"));
        PromptResult.Accepted turn = h.promptAsync("hi");
        h.timer.nextWaiting();
        RetrySettings d = RetrySettings.DEFAULTS;
        h.settings(new RetrySettings(
                true, 10, 2000, 300_000, 600_000, true, Map.of(), d.fallbackRevertPolicy(), d.refusalPinMs()));
        h.session.retryNow();
        h.timer.nextWaiting().elapse();
        turn.completion().get(5, TimeUnit.SECONDS);
        assertThat(h.timer.delays()).containsExactly(438L, 3500L);
    }

    @Test
    void loweringMaxRetriesMidChainExhaustsItAtTheNextFailure() throws Exception {
        h.timer.hold();
        h.script(overloaded(), overloaded(), overloaded());
        PromptResult.Accepted turn = h.promptAsync("hi");
        h.timer.nextWaiting().elapse();
        h.timer.nextWaiting();
        h.settings(retry(1, 300_000, 600_000));
        h.session.retryNow();
        turn.completion().get(5, TimeUnit.SECONDS);
        assertThat(h.all(AutoRetryEnd.class))
                .containsExactly(new AutoRetryEnd(false, 2, OVERLOADED, RetryEndReason.EXHAUSTED));
    }

    @Test
    void aSecondChainAfterASuccessStartsAgainAtAttemptOne() throws Exception {
        h.script(overloaded(), ok("one"), overloaded(), overloaded(), ok("two"));
        h.prompt("first");
        h.prompt("second");
        assertThat(h.all(AutoRetryStart.class))
                .extracting(AutoRetryStart::attempt)
                .containsExactly(1, 1, 2);
        assertThat(h.timer.delays()).containsExactly(438L, 438L, 875L);
        assertThat(h.all(AutoRetryEnd.class)).extracting(AutoRetryEnd::attempt).containsExactly(1, 2);
    }

    @Test
    void theTurnIsNotCompleteUntilTheChainEnds() throws Exception {
        h.timer.hold();
        h.script(overloaded(), ok("x"));
        PromptResult.Accepted turn = h.promptAsync("hi");
        h.timer.nextWaiting();
        assertThat(turn.completion()).isNotDone();
        assertThat(h.session.state().turnRunning()).isTrue();
        assertThat(h.session.prompt("another", null)).isInstanceOf(PromptResult.Rejected.class);
        h.session.retryNow();
        assertThat(turn.completion().get(5, TimeUnit.SECONDS).succeeded()).isTrue();
    }

    @Test
    void authenticationFailuresAreTerminalAtOnce() throws Exception {
        h.script(http(
                401,
                "Unauthorized",
                "Incorrect API key provided: sk-...abcd.",
                "invalid_request_error",
                "invalid_api_key",
                Map.of()));
        h.prompt("hi");
        assertThat(h.requests).hasSize(1);
        assertThat(h.types()).doesNotContain("auto_retry_start", "auto_retry_end");
    }

    @Test
    void aContextOverflowIsNeverRetriedAndTellsTheUserWhatToDo() throws Exception {
        h.script(http(
                400,
                "Bad Request",
                "This model's maximum context length is 128000 tokens. However, your "
                        + "messages resulted in 130000 tokens. Please reduce the length of the messages.",
                "invalid_request_error",
                "context_length_exceeded",
                Map.of()));
        h.prompt("hi");
        assertThat(h.requests).hasSize(1);
        assertThat(h.types()).doesNotContain("auto_retry_start");
        Notice notice = h.all(Notice.class).getFirst();
        assertThat(notice.message())
                .contains("too long for openai/gpt-4.1-mini")
                .contains("new chat");
        assertThat(h.shape()).endsWith("reply", "notice", "agent_end");
    }

    @Test
    void xShouldRetryFalseWinsOverARetryableStatus() throws Exception {
        h.script(http(503, "Service Unavailable", "busy", null, null, headers("x-should-retry", "false")));
        h.prompt("hi");
        assertThat(h.requests).hasSize(1);
        assertThat(h.types()).doesNotContain("auto_retry_start");
    }

    @Test
    void creditExhaustionWithNothingToSwitchToIsTerminalAtOnce() throws Exception {
        h.script(http(
                429,
                "Too Many Requests",
                "You exceeded your current quota, please check your plan and billing " + "details.",
                "insufficient_quota",
                "insufficient_quota",
                Map.of()));
        h.prompt("hi");
        assertThat(h.requests).hasSize(1);
        assertThat(h.timer.delays()).isEmpty();
        assertThat(h.types()).doesNotContain("auto_retry_start", "auto_retry_end");
    }

    @Test
    void aUsageLimitWithoutHintWaitsTheReasonsDefaultUnderTheFailFastRule() throws Exception {
        h.settings(retry(10, 0, 0));
        h.script(
                http(429, "Too Many Requests", "You've hit your usage limit for this plan.", null, null, Map.of()),
                ok("x"));
        h.prompt("hi");
        assertThat(h.all(AutoRetryStart.class).getFirst().errorKind()).isEqualTo(ErrorKind.USAGE_LIMIT);
        assertThat(h.timer.delays())
                .as("the 30-min default of a usage limit of unknown period")
                .containsExactly(1_800_000L);
    }

    @Test
    void aNetworkFailureWithoutStatusIsRetriedByItsText() throws Exception {
        h.script(
                transport("Connection reset before the response headers arrived (IOException: unexpected end of "
                        + "stream on http://127.0.0.1:9/...)"),
                ok("x"));
        h.prompt("hi");
        assertThat(h.all(AutoRetryStart.class))
                .extracting(AutoRetryStart::errorKind)
                .containsExactly(ErrorKind.TRANSIENT);
    }
}
