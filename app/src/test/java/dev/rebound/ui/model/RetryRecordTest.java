package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryDecidedBy;
import dev.rebound.event.RetryEndReason;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A reply's retry record from its calls and its chain's record, and the words the desktop shows for it. */
class RetryRecordTest {
    private static final long T0 = 1_796_000_000_000L;
    private static final String CLAUDE = "anthropic/claude-sonnet-4-5";
    private static final String GPT = "openai/gpt-4.1-mini";
    private static final String OVERLOADED = "529 Overloaded: Overloaded (type: overloaded_error)";

    private final RetryRecordText words = new RetryRecordText(new ModelNames(() -> Settings.DEFAULTS), ZoneOffset.UTC);

    private static AssistantMessage failed(
            String model, String key, long at, Integer status, String type, String text) {
        String[] ref = model.split("/", 2);
        return new AssistantMessage(
                "m" + at,
                List.of(),
                ref[0],
                ref[1],
                "openai-completions",
                key,
                null,
                StopReason.ERROR,
                text,
                null,
                new ProviderFailure(
                        status == null ? FailureKind.TRANSPORT : FailureKind.HTTP,
                        status,
                        type,
                        null,
                        Map.of("request-id", "req_" + at)),
                at + 90,
                at);
    }

    private static AssistantMessage answered(String model, String key, long at) {
        String[] ref = model.split("/", 2);
        return new AssistantMessage(
                "m" + at,
                List.of(new ContentBlock.Text("Hello")),
                ref[0],
                ref[1],
                "openai-completions",
                key,
                null,
                StopReason.STOP,
                null,
                null,
                null,
                at + 30_000,
                at);
    }

    private static RetryAttempt attempt(
            int n, ErrorKind kind, Integer status, String model, String key, Long delay, RetryDecidedBy by) {
        return new RetryAttempt(n, kind, status, model, key, delay, "error " + n, by);
    }

    private static RetryChainEnd chain(RetryEndReason reason, String finalError, long end, RetryAttempt... attempts) {
        return new RetryChainEnd("t1", List.of(attempts), reason, finalError, T0, end);
    }

    @Test
    void threeOverloadsThenAnAnswerAreRecoveredAfterThreeRetriesWithTheTimeToTheAnsweringCall() {
        List<AssistantMessage> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(failed(CLAUDE, "work", T0 + i * 1500L, 529, "overloaded_error", OVERLOADED));
        }
        calls.add(answered(CLAUDE, "work", T0 + 4600));
        RetryRecord record = RetryRecord.of(
                calls,
                chain(
                        RetryEndReason.SUCCEEDED,
                        null,
                        T0 + 9000,
                        attempt(0, ErrorKind.TRANSIENT, 529, CLAUDE, "work", 438L, RetryDecidedBy.BACKOFF),
                        attempt(1, ErrorKind.TRANSIENT, 529, CLAUDE, "work", 875L, RetryDecidedBy.BACKOFF),
                        attempt(2, ErrorKind.TRANSIENT, 529, CLAUDE, "work", 2000L, RetryDecidedBy.PROVIDER_HINT)));

        assertThat(record.outcome()).isEqualTo(RetryRecord.Outcome.RECOVERED);
        assertThat(record.retries()).isEqualTo(3);
        assertThat(record.elapsedMs())
                .as("to the start of the call that answered, not its end")
                .isEqualTo(4600);
        assertThat(words.summary(record)).isEqualTo("Recovered after 3 retries · 4.6 s · overloaded (529)");
        List<RetryRecordText.Line> timeline = words.timeline(record);
        assertThat(timeline)
                .extracting(RetryRecordText.Line::head)
                .containsExactly(
                        "1 · 00:53:20 · " + CLAUDE + " · key \"work\" · overloaded (529)",
                        "2 · 00:53:21 · " + CLAUDE + " · key \"work\" · overloaded (529)",
                        "3 · 00:53:23 · " + CLAUDE + " · key \"work\" · overloaded (529)",
                        "4 · 00:53:24 · " + CLAUDE + " · key \"work\" · answered");
        assertThat(timeline)
                .extracting(RetryRecordText.Line::decision)
                .containsExactly(
                        "retried after 0.4 s (backoff)",
                        "retried after 0.9 s (backoff)",
                        "retried after 2.0 s, as the provider asked",
                        "");
        assertThat(timeline.getFirst().message()).isEqualTo("error 0");
    }

    @Test
    void aKeySwitchIsSaidInTheLineAndTheTimelineNamesBothLabels() {
        RetryRecord record = RetryRecord.of(
                List.of(
                        failed(CLAUDE, "a", T0, 429, "usage_limit_error", "You've hit your usage limit."),
                        answered(CLAUDE, "b", T0 + 300)),
                chain(
                        RetryEndReason.SUCCEEDED,
                        null,
                        T0 + 2000,
                        attempt(0, ErrorKind.USAGE_LIMIT, 429, CLAUDE, "a", 0L, RetryDecidedBy.CREDENTIAL_SWITCH)));

        assertThat(record.switchedKey()).isTrue();
        assertThat(words.summary(record))
                .isEqualTo("Recovered after 1 retry · 0.3 s · usage limit (429) · switched key");
        assertThat(words.timeline(record))
                .extracting(RetryRecordText.Line::head, RetryRecordText.Line::decision)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "1 · 00:53:20 · " + CLAUDE + " · key \"a\" · usage limit (429)",
                                "switched to another key at once"),
                        org.assertj.core.groups.Tuple.tuple(
                                "2 · 00:53:20 · " + CLAUDE + " · key \"b\" · answered", ""));
    }

    @Test
    void aFallbackThatAnsweredNamesBothModels() {
        RetryRecord record = RetryRecord.of(
                List.of(failed(CLAUDE, null, T0, 529, null, OVERLOADED), answered(GPT, null, T0 + 250)),
                chain(
                        RetryEndReason.SUCCEEDED,
                        null,
                        T0 + 3000,
                        attempt(0, ErrorKind.TRANSIENT, 529, CLAUDE, null, 0L, RetryDecidedBy.MODEL_FALLBACK)));

        assertThat(record.fellBack()).isTrue();
        assertThat(words.summary(record))
                .isEqualTo(
                        "Answered by " + GPT + " (fallback from " + CLAUDE + ") · 1 retry · 0.3 s · overloaded (529)");
        assertThat(words.timeline(record).getFirst().decision()).isEqualTo("fell back to another model at once");
        assertThat(words.timeline(record).getFirst().head()).doesNotContain("key");
    }

    @Test
    void anExhaustedChainCountsTheRetriesMadeAndSaysHowItEnded() {
        RetryRecord record = RetryRecord.of(
                List.of(
                        failed(CLAUDE, "work", T0, null, null, "Connection reset"),
                        failed(CLAUDE, "work", T0 + 1000, 503, null, "503 Service Unavailable"),
                        failed(CLAUDE, "work", T0 + 3000, 503, null, "503 Service Unavailable")),
                chain(
                        RetryEndReason.EXHAUSTED,
                        "503 Service Unavailable",
                        T0 + 12_400,
                        attempt(0, ErrorKind.TRANSIENT, null, CLAUDE, "work", 500L, RetryDecidedBy.BACKOFF),
                        attempt(1, ErrorKind.TRANSIENT, 503, CLAUDE, "work", 1000L, RetryDecidedBy.BACKOFF),
                        new RetryAttempt(2, null, 503, CLAUDE, "work", null, "503 Service Unavailable", null)));

        assertThat(record.outcome()).isEqualTo(RetryRecord.Outcome.FAILED);
        assertThat(record.retries()).isEqualTo(2);
        assertThat(words.summary(record))
                .isEqualTo("Failed after 2 retries · 12 s · connection lost, unavailable (503)");
        assertThat(words.timeline(record))
                .extracting(RetryRecordText.Line::head)
                .last()
                .isEqualTo("Ended: no retries left (Settings → Retry → Max retries)");
    }

    @Test
    void aCancelledChainAndAStoppedOneSaySoAndAFailFastSaysNotRetried() {
        RetryChainEnd cancelled = chain(
                RetryEndReason.CANCELLED,
                "Retry cancelled",
                T0 + 8_100,
                attempt(0, ErrorKind.RATE_LIMIT, 429, CLAUDE, null, 30_000L, RetryDecidedBy.PROVIDER_HINT));
        List<AssistantMessage> one = List.of(failed(CLAUDE, null, T0, 429, "rate_limit_error", "Rate limited"));
        assertThat(words.summary(RetryRecord.of(one, cancelled)))
                .as("the wait was cancelled before its retry ran: no retry was made")
                .isEqualTo("Retry cancelled · 8.1 s · rate limited (429)");
        assertThat(words.timeline(RetryRecord.of(one, cancelled)).getFirst().decision())
                .isEqualTo("a retry was due after 30 s; you cancelled it");

        RetryChainEnd stopped =
                new RetryChainEnd("t1", cancelled.attempts(), RetryEndReason.ABORTED, "Aborted", T0, T0 + 2_000);
        assertThat(words.summary(RetryRecord.of(one, stopped))).isEqualTo("Stopped · 2.0 s · rate limited (429)");

        RetryChainEnd failFast = chain(
                RetryEndReason.MAX_DELAY_EXCEEDED,
                "Not retried",
                T0,
                new RetryAttempt(0, null, 429, CLAUDE, null, null, "Rate limited", null));
        assertThat(words.summary(RetryRecord.of(one, failFast))).isEqualTo("Not retried · rate limited (429)");
    }

    @Test
    void aRecordSavedBeforeDecidedByExistedStillSaysTheWait() {
        RetryRecord record = RetryRecord.of(
                List.of(failed(CLAUDE, null, T0, 529, null, OVERLOADED), answered(CLAUDE, null, T0 + 700)),
                chain(
                        RetryEndReason.SUCCEEDED,
                        null,
                        T0 + 900,
                        new RetryAttempt(0, ErrorKind.TRANSIENT, 529, CLAUDE, null, 600L, OVERLOADED)));

        assertThat(words.timeline(record).getFirst().decision()).isEqualTo("retried after 0.6 s");
    }

    @Test
    void diagnosticsAreAMarkdownTableWithLabelsRequestIdsAndDecisions() {
        RetryRecord record = RetryRecord.of(
                List.of(
                        failed(CLAUDE, "work", T0, 529, "overloaded_error", "Overloaded | try later"),
                        answered(GPT, "personal", T0 + 500)),
                chain(
                        RetryEndReason.SUCCEEDED,
                        null,
                        T0 + 900,
                        new RetryAttempt(
                                0,
                                ErrorKind.TRANSIENT,
                                529,
                                CLAUDE,
                                "work",
                                0L,
                                "Overloaded | try later",
                                RetryDecidedBy.MODEL_FALLBACK)));

        String md = words.diagnostics(record);

        assertThat(md)
                .startsWith("### Rebound retry record\n")
                .contains(
                        "| # | Started (UTC) | Model | Key | Error kind | HTTP | Failure | Request id | Wait | Decided by |")
                .contains("| 1 | 2026-11-30T00:53:20Z | " + CLAUDE
                        + " | work | transient | 529 | overloaded (529) | req_" + T0 + " | 0 ms | model_fallback |")
                .contains("| 2 | 2026-11-30T00:53:20.500Z | " + GPT + " | personal |  |  | answered |  |  |  |")
                .contains("1. Overloaded | try later")
                .doesNotContain("sk-");
    }

    @Test
    void failuresAreNamedByKindThenByWhatTheProviderSaidThenByWhereTheCallBroke() {
        assertThat(FailureLabels.of(ErrorKind.RATE_LIMIT, 429, null)).isEqualTo("rate limited (429)");
        assertThat(FailureLabels.of(ErrorKind.USAGE_LIMIT, 402, null)).isEqualTo("usage limit (402)");
        assertThat(FailureLabels.of(
                        ErrorKind.TRANSIENT,
                        null,
                        new ProviderFailure(FailureKind.STREAM_ERROR, null, "overloaded_error", null, Map.of())))
                .isEqualTo("overloaded");
        assertThat(FailureLabels.of(ErrorKind.TRANSIENT, 500, null)).isEqualTo("server error (500)");
        assertThat(FailureLabels.of(ErrorKind.TRANSIENT, 502, null)).isEqualTo("bad gateway (502)");
        assertThat(FailureLabels.of(ErrorKind.TRANSIENT, null, ProviderFailure.of(FailureKind.TIMEOUT)))
                .isEqualTo("timed out");
        assertThat(FailureLabels.of(ErrorKind.TRANSIENT, null, ProviderFailure.of(FailureKind.TRUNCATED)))
                .isEqualTo("reply cut off");
        assertThat(FailureLabels.of(ErrorKind.STALE_REPLAY, 404, null))
                .isEqualTo("conversation expired on the server (404)");
        assertThat(FailureLabels.of(null, 401, null)).isEqualTo("key refused (401)");
    }

    @Test
    void durationsReadAsPeopleSayThem() {
        assertThat(RetryRecordText.duration(40)).isEqualTo("40 ms");
        assertThat(RetryRecordText.duration(400)).isEqualTo("0.4 s");
        assertThat(RetryRecordText.duration(4_649)).isEqualTo("4.6 s");
        assertThat(RetryRecordText.duration(12_400)).isEqualTo("12 s");
        assertThat(RetryRecordText.duration(125_000)).isEqualTo("2 min 5 s");
        assertThat(RetryRecordText.duration(300_000)).isEqualTo("5 min");
        assertThat(RetryRecordText.duration(3_900_000)).isEqualTo("1 h 5 min");
    }

    @Test
    void usageReadsAsTokensInAndOutAndIsEmptyWhenNotReported() {
        assertThat(UsageText.of(new dev.rebound.transcript.Usage(1234, 567, 1000, 0)))
                .isEqualTo("1,234 tokens in (1,000 cached) · 567 out");
        assertThat(UsageText.of(new dev.rebound.transcript.Usage(12, 3, 0, 0))).isEqualTo("12 tokens in · 3 out");
        assertThat(UsageText.of(dev.rebound.transcript.Usage.NONE)).isEmpty();
    }

    @Test
    void aCallTheUserStoppedIsNotAFailureAndAFallbackThatRevertedIsStillSaid() {
        AssistantMessage stoppedCall = new AssistantMessage(
                "m2",
                List.of(new ContentBlock.Text("Partial")),
                "openai",
                "gpt-4.1-mini",
                "openai-completions",
                null,
                null,
                StopReason.ABORTED,
                "Request was aborted",
                null,
                null,
                T0 + 2_000,
                T0 + 1_000);
        RetryRecord stopped = RetryRecord.of(
                List.of(failed(CLAUDE, null, T0, 529, null, OVERLOADED), stoppedCall),
                chain(
                        RetryEndReason.ABORTED,
                        "Request was aborted",
                        T0 + 2_000,
                        attempt(0, ErrorKind.TRANSIENT, 529, CLAUDE, null, 0L, RetryDecidedBy.MODEL_FALLBACK),
                        new RetryAttempt(1, null, null, GPT, null, null, "Request was aborted", null)));
        assertThat(words.summary(stopped))
                .isEqualTo("Stopped after 1 retry · 2.0 s · overloaded (529) · fell back to " + GPT);
        assertThat(words.timeline(stopped).get(1).head()).endsWith(" · " + GPT + " · stopped by you");

        RetryRecord reverted = RetryRecord.of(
                List.of(
                        failed(CLAUDE, null, T0, 529, null, OVERLOADED),
                        failed(GPT, null, T0 + 500, 503, null, "503"),
                        answered(CLAUDE, null, T0 + 3_000)),
                chain(
                        RetryEndReason.SUCCEEDED,
                        null,
                        T0 + 9_000,
                        attempt(0, ErrorKind.TRANSIENT, 529, CLAUDE, null, 0L, RetryDecidedBy.MODEL_FALLBACK),
                        attempt(1, ErrorKind.TRANSIENT, 503, GPT, null, 2_000L, RetryDecidedBy.BACKOFF)));
        assertThat(words.summary(reverted))
                .isEqualTo("Recovered after 2 retries · 3.0 s · overloaded (529), unavailable (503) · via " + GPT
                        + " and back");
    }
}
