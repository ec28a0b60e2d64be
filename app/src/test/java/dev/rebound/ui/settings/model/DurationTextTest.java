package dev.rebound.ui.settings.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rebound.ui.settings.model.DurationText.Millis;
import dev.rebound.ui.settings.model.DurationText.Refused;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Durations as people type them into the Retry tab, and as the tab shows them. */
class DurationTextTest {

    private static long millis(String text) {
        DurationText.Result result = DurationText.parse(text);
        assertThat(result).as("'%s' reads as a duration", text).isInstanceOf(Millis.class);
        return ((Millis) result).value();
    }

    private static String refusal(String text) {
        DurationText.Result result = DurationText.parse(text);
        assertThat(result).as("'%s' is refused", text).isInstanceOf(Refused.class);
        return ((Refused) result).reason();
    }

    @ParameterizedTest(name = "''{0}'' is {1} ms")
    @CsvSource(
            delimiter = '|',
            value = {
                "90s | 90000",
                "90 s | 90000",
                "90 sec | 90000",
                "90 secs | 90000",
                "90 seconds | 90000",
                "1 second | 1000",
                "1m30s | 90000",
                "1 m 30 s | 90000",
                "1 min 30 s | 90000",
                "1 minute 30 seconds | 90000",
                "1 minute, 30 seconds | 90000",
                "1 hour and 30 minutes | 5400000",
                "1h30m | 5400000",
                "500 ms | 500",
                "500ms | 500",
                "500 msec | 500",
                "500 milliseconds | 500",
                "1 millisecond | 1",
                "2h | 7200000",
                "2 hrs | 7200000",
                "2 hours | 7200000",
                "1 d | 86400000",
                "2 days | 172800000",
                "5 min | 300000",
                "5 mins | 300000",
                "5 minutes | 300000",
                "5m | 300000",
                "1.5 s | 1500",
                "1.5s | 1500",
                "0.5 min | 30000",
                ".5 s | 500",
                "1.234 s | 1234",
                "1.2500 s | 1250",
                "1 min 0.5 s | 60500",
                "1 s 500 ms | 1500",
                "1 h 2 min 3 s 4 ms | 3723004",
                "0 | 0",
                "00 | 0",
                "0.0 | 0",
                "0 s | 0",
                "0ms | 0",
            })
    void readsTheWordingsAPersonTypes(String text, long expected) {
        assertThat(millis(text)).isEqualTo(expected);
    }

    @Test
    void caseAndSurroundingOrInnerSpacesDoNotMatter() {
        assertThat(millis("  1M30S  ")).isEqualTo(90_000);
        assertThat(millis("5 MIN")).isEqualTo(300_000);
        assertThat(millis("500 Ms")).isEqualTo(500);
        assertThat(millis("1   h\t30   min")).isEqualTo(5_400_000);
    }

    @Test
    void aBareNumberOtherThanZeroIsRefusedWithTheTwoReadingsItCouldHave() {
        assertThat(refusal("30")).isEqualTo("add a unit: 30 s or 30 ms");
        assertThat(refusal("500000")).isEqualTo("add a unit: 500000 s or 500000 ms");
        assertThat(refusal("1.5")).isEqualTo("add a unit after 1.5: 1.5 s or 1.5 ms");
        assertThat(refusal("1m30")).isEqualTo("add a unit after 30: 30 s or 30 ms");
    }

    @Test
    void unknownUnitsAndGarbageAreRefusedWithWhatToWriteInstead() {
        assertThat(refusal("5 parsecs")).isEqualTo("'parsecs' is not a unit; use ms, s, min or h");
        assertThat(refusal("5 µs")).isEqualTo("'µs' is not a unit; use ms, s, min or h");
        assertThat(refusal("soon")).isEqualTo("'soon' is not a duration; write one such as 30 s, 5 min or 1 min 30 s");
        assertThat(refusal("5 s!")).startsWith("'!' is not a duration");
        assertThat(refusal("1.2.3 s")).startsWith("'.3 s' is not a duration");
        assertThat(refusal("PT30S")).contains("is not");
    }

    @Test
    void emptyTextAsksForADuration() {
        assertThat(refusal("")).isEqualTo("enter a duration, such as 30 s, 5 min or 1 min 30 s");
        assertThat(refusal("   ")).isEqualTo(refusal(""));
        assertThat(refusal(null)).isEqualTo(refusal(""));
    }

    @Test
    void negativeDurationsAreRefused() {
        assertThat(refusal("-5 s")).isEqualTo("a duration cannot be negative");
        assertThat(refusal("-1")).isEqualTo("a duration cannot be negative");
    }

    @Test
    void aDecimalCommaIsRefusedRatherThanGuessedAt() {
        assertThat(refusal("1,5 s")).isEqualTo("use a point for decimals, as in 1.5 s");
        assertThat(refusal("1,500 ms")).isEqualTo("use a point for decimals, as in 1.5 s");
    }

    @Test
    void unitsOutOfOrderOrRepeatedAreRefused() {
        assertThat(refusal("30 s 1 min")).isEqualTo("write larger units first and each once, as in 1 min 30 s");
        assertThat(refusal("1 min 1 min")).isEqualTo("write larger units first and each once, as in 1 min 30 s");
        assertThat(refusal("1m 1minute")).isEqualTo("write larger units first and each once, as in 1 min 30 s");
    }

    @Test
    void fractionsOfAMillisecondAreRefused() {
        assertThat(refusal("1.5 ms")).isEqualTo("give a whole number of milliseconds; the smallest step is 1 ms");
        assertThat(refusal("1.0005 s")).isEqualTo(refusal("1.5 ms"));
    }

    @Test
    void whatDoesNotFitInALongIsRefusedNotWrappedAround() {
        assertThat(millis(Long.MAX_VALUE + " ms")).isEqualTo(Long.MAX_VALUE);
        assertThat(refusal("9223372036854775808 ms")).isEqualTo("too long to count in milliseconds");
        assertThat(refusal("2562047788016 h")).isEqualTo("too long to count in milliseconds");
        assertThat(refusal("99999999999999999999999999999999999999 d")).isEqualTo("too long to count in milliseconds");
    }

    @ParameterizedTest(name = "{0} ms is shown as ''{1}''")
    @CsvSource(
            delimiter = '|',
            value = {
                "0 | 0",
                "1 | 1 ms",
                "500 | 500 ms",
                "999 | 999 ms",
                "1000 | 1 s",
                "1234 | 1.234 s",
                "1500 | 1.5 s",
                "1050 | 1.05 s",
                "30000 | 30 s",
                "60000 | 1 min",
                "90000 | 1 min 30 s",
                "60500 | 1 min 0.5 s",
                "300000 | 5 min",
                "600000 | 10 min",
                "1800000 | 30 min",
                "3600000 | 1 h",
                "3600001 | 1 h 0.001 s",
                "5400000 | 1 h 30 min",
                "3723004 | 1 h 2 min 3.004 s",
                "86400000 | 24 h",
                "9223372036854775807 | 2562047788015 h 12 min 55.807 s",
            })
    void showsTheCanonicalShortForm(long millis, String expected) {
        assertThat(DurationText.format(millis)).isEqualTo(expected);
        assertThat(millis(expected)).as("what is shown reads back").isEqualTo(millis);
    }

    @Test
    void everyFormattedDurationReadsBackExactly() {
        Random random = new Random(16);
        for (int i = 0; i < 10_000; i++) {
            long millis = switch (i % 3) {
                case 0 -> random.nextLong(0, 10_000);
                case 1 -> random.nextLong(0, 1_000_000_000L);
                default -> random.nextLong(0, Long.MAX_VALUE);
            };
            assertThat(millis(DurationText.format(millis))).isEqualTo(millis);
        }
    }

    @Test
    void aNegativeNumberHasNoFormat() {
        assertThatThrownBy(() -> DurationText.format(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
