package dev.rebound.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.RetryEndReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The words people read when a chain ends without a reply, and the fail-fast message they are made from. */
class ChainEndWordingTest {
    private static final String ERROR = "429 Too Many Requests: Daily limit reached";

    @Test
    void aFailFastBeforeAnyRetrySaysWhatHappenedInsteadOfZeroAttempts() {
        String message =
                new MaxDelayExceeded(86_400_000, 300_000, MaxDelayExceeded.Cause.PROVIDER, null, null, ERROR).message();
        assertThat(message)
                .isEqualTo("Provider requested 86400000ms wait, exceeds retry.maxDelayMs (300000ms). "
                        + "Original error: " + ERROR);
        assertThat(ChainEndWording.describe(RetryEndReason.MAX_DELAY_EXCEEDED, 0, message))
                .isEqualTo(
                        "Not retried: the provider asked for a 24 h wait, more than the 5 min allowed (Settings → Retry). "
                                + ERROR);
    }

    @Test
    void aFailFastAfterSomeRetriesSaysHowManyWereMade() {
        String message = new MaxDelayExceeded(
                        2_000, 1_500, MaxDelayExceeded.Cause.REBOUND, "usage_limit", 1_000L, ERROR)
                .message();
        assertThat(ChainEndWording.describe(RetryEndReason.MAX_DELAY_EXCEEDED, 1, message))
                .isEqualTo(
                        "Gave up after 1 retry: the limit came back after the 1 s the provider named, so the next wait would be "
                                + "2 s, more than the 1.5 s allowed (Settings → Retry). " + ERROR);
    }

    @Test
    void reboundsOwnWaitAndBlockedKeysAreNamedAsSuch() {
        String own = new MaxDelayExceeded(
                        1_800_000, 300_000, MaxDelayExceeded.Cause.REBOUND, "usage_limit", null, ERROR)
                .message();
        String blocked = new MaxDelayExceeded(
                        720_000, 300_000, MaxDelayExceeded.Cause.KEYS_BLOCKED, "usage_limit", null, ERROR)
                .message();
        assertThat(ChainEndWording.describe(RetryEndReason.MAX_DELAY_EXCEEDED, 0, own))
                .startsWith(
                        "Not retried: this usage limit would need a 30 min wait (the provider named none), more than the 5 min "
                                + "allowed");
        assertThat(ChainEndWording.describe(RetryEndReason.MAX_DELAY_EXCEEDED, 2, blocked))
                .startsWith(
                        "Gave up after 2 retries: every API key is blocked for another 12 min, more than the 5 min allowed");
    }

    @Test
    void everyFormOfTheFailFastMessageReadsBackToTheSameFacts() {
        for (MaxDelayExceeded stop : new MaxDelayExceeded[] {
            new MaxDelayExceeded(900_000, 300_000, MaxDelayExceeded.Cause.PROVIDER, null, null, "a\\nmulti-line: (x)"),
            new MaxDelayExceeded(2_000, 1_500, MaxDelayExceeded.Cause.REBOUND, "usage_limit", 1_000L, ERROR),
            new MaxDelayExceeded(1_800_000, 60_000, MaxDelayExceeded.Cause.REBOUND, "usage_limit", null, ERROR),
            new MaxDelayExceeded(61_000, 60_000, MaxDelayExceeded.Cause.KEYS_BLOCKED, "usage_limit", null, ERROR)
        }) {
            assertThat(MaxDelayExceeded.parse(stop.message())).hasValue(stop);
        }
        assertThat(MaxDelayExceeded.parse("Retry cancelled")).isEmpty();
        assertThat(MaxDelayExceeded.parse(null)).isEmpty();
    }

    @Test
    void theOtherEndsKeepTheWordsOfTheRetryPolicy() {
        assertThat(ChainEndWording.describe(RetryEndReason.EXHAUSTED, 10, ERROR))
                .isEqualTo("Retry failed after 10 attempts: " + ERROR);
        assertThat(ChainEndWording.describe(RetryEndReason.NOT_RETRYABLE, 1, ERROR))
                .isEqualTo("Retry failed after 1 attempt: " + ERROR);
        assertThat(ChainEndWording.describe(RetryEndReason.ELAPSED_BUDGET_EXCEEDED, 0, ERROR))
                .isEqualTo(
                        "Not retried: the wait would run past the time allowed for one chain of retries (Settings → Retry). "
                                + ERROR);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0|0 ms",
                "800|800 ms",
                "1000|1 s",
                "1500|1.5 s",
                "9999|10 s",
                "30000|30 s",
                "59500|1 min",
                "60000|1 min",
                "270000|4 min 30 s",
                "300000|5 min",
                "3600000|1 h",
                "5400000|1 h 30 min",
                "86400000|24 h",
                "172800000|2 days",
                "604800000|7 days"
            })
    void durationsAreWrittenForPeople(long ms, String words) {
        assertThat(Durations.describe(ms)).isEqualTo(words);
    }
}
