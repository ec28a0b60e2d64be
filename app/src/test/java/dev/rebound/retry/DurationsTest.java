package dev.rebound.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** Go-style and human durations, as providers write them. */
class DurationsTest {

    @ParameterizedTest(name = "{0} → {1} ms")
    @CsvSource(
            delimiter = '|',
            value = {
                "1s               | 1000",
                "6m0s             | 360000",
                "20ms             | 20",
                "1h2m3.5s         | 3723500",
                "0.5s             | 500",
                ".5s              | 500",
                "7.725s           | 7725",
                "1m30.5s          | 90500",
                "38.470252s       | 38471",
                "1.2ms            | 2",
                "0.1s             | 100",
                "1ns              | 1",
                "1500us           | 2",
                "1500µs           | 2",
                "2000000ns        | 2",
                "0s               | 0",
                "1d               | 86400000"
            })
    void goStyle(String text, long expectedMs) {
        assertThat(Durations.parseDuration(text)).hasValue(expectedMs);
    }

    @ParameterizedTest(name = "{0} → {1} ms")
    @CsvSource(
            delimiter = '|',
            value = {
                "2min                       | 120000",
                "1.5 seconds                | 1500",
                "30 minutes                 | 1800000",
                "1 second                   | 1000",
                "3 secs                     | 3000",
                "2 hrs                      | 7200000",
                "1 hour                     | 3600000",
                "2 days                     | 172800000",
                "250 milliseconds           | 250",
                "2 hours 1 minute           | 7260000",
                "2 hours, 1 minute          | 7260000",
                "1 hour and 30 minutes      | 5400000",
                "1h 30m                     | 5400000",
                "~5 min                     | 300000",
                "2MIN                       | 120000",
                "1H2M3S                     | 3723000",
                "'  3s  '                   | 3000"
            })
    void humanStyle(String text, long expectedMs) {
        assertThat(Durations.parseDuration(text)).hasValue(expectedMs);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(
            strings = {
                "   ",
                "3",
                "3.5",
                "-5s",
                "+5s",
                "1e3s",
                "NaN",
                "Infinity",
                "s",
                "ms",
                "5 sheep",
                "5s later",
                "about 5s",
                "1.5.5s",
                "5 s s",
                "5s,",
                "and 5s",
                "5s and",
                "٣s",
                "99999999999999999999s",
                "1.0000000000000000001s",
                "1s2s3s4s5s6s7s8s9s",
                "0x10s",
                "5\u0000s"
            })
    void anythingElseIsNotADuration(String text) {
        assertThat(Durations.parseDuration(text)).isEmpty();
    }

    @Test
    void aDurationLongerThanALongOfMillisecondsIsNotOne() {
        assertThat(Durations.parseDuration("999999999999999d")).isEmpty();
        assertThat(Durations.parseDuration("999999999999999s")).hasValue(999_999_999_999_999_000L);
    }

    @Test
    void exactMillisecondsKeepTheirFraction() {
        assertThat(Durations.millis("1.2ms")).isEqualByComparingTo("1.2");
        assertThat(Durations.millis("38.470252s")).isEqualByComparingTo("38470.252");
        assertThat(Durations.millis("nonsense")).isNull();
    }

    @ParameterizedTest
    @CsvSource({"3, 3", "0.5, 0.5", "1500.5, 1500.5", ".5, 0.5", "5., 5", "' 7 ', 7", "000012, 12"})
    void plainDecimals(String text, BigDecimal expected) {
        assertThat(Durations.decimal(text)).isEqualByComparingTo(expected);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(
            strings = {
                ".",
                "-1",
                "+1",
                "1e3",
                "NaN",
                "1,5",
                "1 5",
                "0x1",
                "١",
                "1234567890123456",
                "1.1234567890123456789"
            })
    void notPlainDecimals(String text) {
        assertThat(Durations.decimal(text)).isNull();
    }
}
