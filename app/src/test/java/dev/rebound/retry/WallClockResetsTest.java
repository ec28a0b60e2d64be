package dev.rebound.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Wall-clock resets of subscription limits read as delay hints (§4, §5.1): the next occurrence of a time, local unless
 * the text names a zone, across midnight and across zones.
 */
class WallClockResetsTest {
    private static final ProviderFailure RATE_LIMITED =
            new ProviderFailure(FailureKind.HTTP, 429, null, null, Map.of());

    private static Optional<RetryHint> hint(String now, String zone, String text) {
        Clock clock = Clock.fixed(Instant.parse(now), ZoneId.of(zone));
        return new RetryHints(clock).parse(RATE_LIMITED, text);
    }

    private static Duration wait(String now, String zone, String text) {
        return Duration.ofMillis(hint(now, zone, text)
                .orElseThrow(() -> new AssertionError("no hint in: " + text))
                .delayMs());
    }

    @Test
    void aTimeOfDayIsItsNextOccurrenceInTheLocalZone() {
        // 10:00 in Berlin (UTC+1 in December): 9:30 AM has passed today, so it is tomorrow's.
        assertThat(wait(
                        "2026-12-01T09:00:00Z",
                        "Europe/Berlin",
                        "You have reached your message limit. Your limit will reset at 9:30 AM."))
                .isEqualTo(Duration.ofHours(23).plusMinutes(30));
        // 08:00 in Berlin: 9:30 AM is still ahead today.
        assertThat(wait("2026-12-01T07:00:00Z", "Europe/Berlin", "Your limit will reset at 9:30 AM."))
                .isEqualTo(Duration.ofMinutes(90));
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', textBlock = """
            2026-12-01T23:50:00Z | UTC              | Limit reached. Resets at 00:10.                        | PT20M
            2026-12-01T22:50:00Z | Europe/Berlin    | Usage limit reached, resets at 12:10 AM                | PT20M
            2026-12-01T23:59:30Z | UTC              | You've hit your limit · resets 12am                    | PT30S
            2026-12-02T04:50:00Z | America/New_York | Your quota resets at 12:05 a.m.                        | PT15M
            """)
    void acrossMidnightTheResetIsTheNextDay(String now, String zone, String text, Duration expected) {
        assertThat(wait(now, zone, text)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', textBlock = """
            2026-12-01T10:00:00Z | America/New_York | Your limit resets at 14:00 UTC.                        | PT4H
            2026-12-01T10:00:00Z | Asia/Tokyo       | You've hit your limit · resets 5am (Europe/Berlin)     | PT18H
            2026-12-01T03:30:00Z | UTC              | You've hit your limit · resets 5am (Europe/Berlin)     | PT30M
            2026-12-01T10:00:00Z | UTC              | The limit resets at 9:00 AM PST.                       | PT7H
            2026-12-01T10:00:00Z | Europe/Berlin    | Quota resets at 12:00 GMT+2                            | PT0S
            2026-12-01T09:00:00Z | Europe/Berlin    | Quota resets at 12:00 GMT+2                            | PT1H
            2026-12-01T10:00:00Z | UTC              | try again at 16:30 +05:30                              | PT1H
            2026-12-01T10:00:00Z | UTC              | 5-hour limit reached ∙ reset at 1pm (Etc/GMT+5).       | PT8H
            2026-12-01T10:00:00Z | UTC              | Access resets at 10:57 PM GMT-3.                       | PT15H57M
            """)
    void aNamedZoneWinsOverTheLocalOne(String now, String zone, String text, Duration expected) {
        if (expected.isZero()) {
            // 12:00 at UTC+2 is 10:00Z: the reset is now, so its next occurrence is a day later.
            expected = Duration.ofDays(1);
        }
        assertThat(wait(now, zone, text)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', textBlock = """
            2026-01-04T09:30:00Z | UTC           | You've hit your usage limit. Try again at Jan 5th, 2026 9:30 AM.   | PT24H
            2026-01-04T09:30:00Z | UTC           | Your limit will reset on January 5 at 9:30am                        | PT24H
            2026-12-31T12:00:00Z | UTC           | Your monthly quota renews on Jan 1.                                  | PT12H
            2026-12-01T10:00:00Z | UTC           | Your weekly limit resets on 2026-12-02T09:30:00Z                    | PT23H30M
            2026-12-01T10:00:00Z | Europe/Berlin | Your weekly limit resets on 2026-12-02 09:30                         | PT22H30M
            2026-12-01T10:00:00Z | UTC           | Weekly limit reached ∙ resets Thu, Dec 3 at 10am                      | PT48H
            2026-12-01T10:00:00Z | UTC           | Weekly limit reached, resets Wednesday at 9am                         | PT23H
            2026-12-01T10:00:00Z | UTC           | Daily limit reached; resets tomorrow at 08:00                          | PT22H
            2026-12-01T10:00:00Z | UTC           | Limit reached: available again on 5 December at 10:00                 | PT96H
            2026-07-09T11:52:00Z | UTC           | You've hit your usage limit. try again at 10 de jul. de 2026, 11:52.   | PT24H
            2026-12-01T10:00:00Z | UTC           | Your free usage resets automatically at midnight Pacific.              | PT22H
            2026-12-01T10:00:00Z | UTC           | The daily cap resets at noon Eastern Time.                             | PT7H
            2026-08-24T07:41:44Z | UTC           | 已达到 5 小时的使用上限。您的限额将在 2026-08-25 07:41:44 重置。           | PT24H
            """)
    void datesAndWeekdaysAreReadToo(String now, String zone, String text, Duration expected) {
        assertThat(wait(now, zone, text)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            You are out of free messages until 4 PM                             | PT6H
            Your message cap will be lifted at 15:30 UTC.                       | PT5H30M
            Usage limit reached. Next reset: 2026-12-02T00:00:00Z               | PT14H
            Usage limit reached. Reset time: 2026-12-02T00:00:00Z               | PT14H
            You've used all your messages. Resets at 9.30pm.                     | PT11H30M
            Available again at 9:30 PM PT                                       | PT19H30M
            Limit reached. Please try again after 14:00 UTC.                    | PT4H
            Limit reached, wait until 2026-12-01 12:30 UTC                       | PT2H30M
            """)
    void moreWaysOfSayingWhenALimitEndsAreRead(String text, Duration expected) {
        assertThat(wait("2026-12-01T10:00:00Z", "UTC", text)).isEqualTo(expected);
    }

    @Test
    void claudeCodesUsageLimitWithAnEpochIsReadAsTheResetTime() {
        assertThat(wait(
                        "2026-12-01T10:00:00Z",
                        "UTC",
                        "Claude AI usage limit reached|"
                                + (Instant.parse("2026-12-01T13:00:00Z").getEpochSecond())))
                .isEqualTo(Duration.ofHours(3));
    }

    @Test
    void codexsResetsAtEpochIsReadAsTheResetTime() {
        long at = Instant.parse("2026-12-01T10:30:00Z").getEpochSecond();
        assertThat(wait("2026-12-01T10:00:00Z", "UTC", "{\"type\":\"usage_limit_reached\",\"resets_at\":" + at + "}"))
                .isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void theHintSaysItCameFromAWallClockReset() {
        assertThat(hint("2026-12-01T10:00:00Z", "UTC", "Your limit will reset at 11:00 AM."))
                .hasValueSatisfying(h -> assertThat(h.source()).isEqualTo(RetryHints.WALL_CLOCK_SOURCE));
    }

    @Test
    void theLongerOfAWallClockResetAndADurationInTheSameTextWins() {
        assertThat(wait("2026-12-01T10:00:00Z", "UTC", "Please retry in 30s. Your daily quota resets at 12:00 UTC."))
                .isEqualTo(Duration.ofHours(2));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Please retry after 1:30",
                "Your limit will reset at 5.",
                "Connection reset at 10:00:01 by peer",
                "Socket reset on 2026-12-02T09:30:00Z",
                "The request was reset 3 times",
                "reset at 25:00",
                "resets at 13 PM",
                "resets on February 30"
            })
    void whatIsNoClockTimeIsNoHint(String text) {
        assertThat(hint("2026-12-01T10:00:00Z", "UTC", text)).isEmpty();
    }

    @Test
    void theClassifierSeesAResetWithoutReadingTheTime() {
        assertThat(WallClockResets.mentioned("You've reached your limit. It resets at 9:30 AM."))
                .isTrue();
        assertThat(WallClockResets.mentioned("Too many requests, retry in 3 seconds"))
                .isFalse();
        assertThat(WallClockResets.mentioned(null)).isFalse();
    }

    @Test
    void theHintIsMeasuredFromTheClocksInstantWhateverItsZone() {
        Instant now = Instant.parse("2026-06-01T10:00:00Z");
        long inUtc = new RetryHints(Clock.fixed(now, ZoneOffset.UTC))
                .parse(RATE_LIMITED, "Resets at 2026-06-01T12:00:00Z")
                .orElseThrow()
                .delayMs();
        long inSydney = new RetryHints(Clock.fixed(now, ZoneId.of("Australia/Sydney")))
                .parse(RATE_LIMITED, "Resets at 2026-06-01T12:00:00Z")
                .orElseThrow()
                .delayMs();
        assertThat(inUtc).isEqualTo(inSydney).isEqualTo(Duration.ofHours(2).toMillis());
    }
}
