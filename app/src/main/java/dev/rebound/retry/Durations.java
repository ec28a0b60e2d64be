package dev.rebound.retry;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads the durations providers write: Go style ({@code 1h2m3.5s}, {@code 6m0s}, {@code 20ms}, {@code 0.5s}) and human
 * style ({@code 2min}, {@code 1.5 seconds}, {@code 30 minutes}, {@code 2 hours, 1 minute}, {@code 1 hour and 30
 * minutes}). Every number needs a unit; units run from nanoseconds to days, case-insensitively. A number has at most
 * {@value #MAX_INTEGER_DIGITS} digits before and {@value #MAX_FRACTION_DIGITS} after the point; signs, exponents and
 * anything else make the text unparseable. Never throws.
 */
public final class Durations {
    static final int MAX_INTEGER_DIGITS = 15;
    static final int MAX_FRACTION_DIGITS = 18;
    /** Components in one duration: enough for every unit once (d h m s ms us ns) plus one. */
    private static final int MAX_COMPONENTS = 8;

    private static final BigDecimal SECOND = BigDecimal.valueOf(1_000);
    private static final BigDecimal MINUTE = BigDecimal.valueOf(60_000);
    private static final BigDecimal HOUR = BigDecimal.valueOf(3_600_000);
    private static final BigDecimal DAY = BigDecimal.valueOf(86_400_000);
    private static final BigDecimal MICROSECOND = new BigDecimal("0.001");
    private static final BigDecimal NANOSECOND = new BigDecimal("0.000001");

    /** Unit spelling (lower case) to milliseconds. */
    private static final Map<String, BigDecimal> UNITS = units();

    /** A decimal number without sign or exponent; its digit counts are checked by {@link #decimal}. */
    private static final String NUMBER = "(?:\\d++(?:\\.\\d++)?+|\\.\\d++)";

    private static final String UNIT = UNITS.keySet().stream()
            .sorted(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()))
            .map(Pattern::quote)
            .collect(Collectors.joining("|", "(?:", ")(?![a-zµμ])"));
    private static final String COMPONENT = NUMBER + "\\s*+" + UNIT;
    private static final String SEPARATOR = "(?:\\s*+,\\s*+|\\s++and\\s++|\\s*+)";

    /**
     * One duration, for embedding in a larger case-insensitive pattern: an optional {@code ~} ("about") and 1 to
     * {@value #MAX_COMPONENTS} components. It may match a number with too many digits; {@link #millis} refuses those.
     */
    static final String REGEX =
            "~?\\s*+" + COMPONENT + "(?:" + SEPARATOR + COMPONENT + "){0," + (MAX_COMPONENTS - 1) + "}";

    private static final Pattern WHOLE = Pattern.compile(REGEX, Pattern.CASE_INSENSITIVE);
    private static final Pattern COMPONENT_PARTS =
            Pattern.compile("(" + NUMBER + ")\\s*+(" + UNIT + ")", Pattern.CASE_INSENSITIVE);
    private static final Pattern DECIMAL = Pattern.compile("(\\d*+)(?:\\.(\\d*+))?+");

    private Durations() {}

    /**
     * The duration in {@code text} in whole milliseconds, fractions rounded up ({@code "1.2ms"} → 2), or empty when
     * the text (leading and trailing blanks aside) is not one duration or does not fit in a {@code long}.
     */
    public static OptionalLong parseDuration(String text) {
        BigDecimal millis = millis(text);
        if (millis == null) {
            return OptionalLong.empty();
        }
        BigDecimal whole = millis.setScale(0, RoundingMode.CEILING);
        return whole.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0
                ? OptionalLong.empty()
                : OptionalLong.of(whole.longValueExact());
    }

    /**
     * A duration as people read it: {@code 800 ms}, {@code 1.5 s}, {@code 30 s}, {@code 5 min}, {@code 4 min 30 s},
     * {@code 24 h}, {@code 1 h 30 min}, {@code 3 days}. Whole units are rounded up, so a wait is never understated.
     */
    public static String describe(long ms) {
        if (ms < 1_000) {
            return Math.max(0, ms) + " ms";
        }
        if (ms < 10_000 && ms % 1_000 != 0) {
            return BigDecimal.valueOf(ms)
                            .divide(SECOND, 1, RoundingMode.CEILING)
                            .stripTrailingZeros()
                            .toPlainString() + " s";
        }
        long seconds = ceilDiv(ms, 1_000);
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3_600) {
            return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
        }
        long minutes = ceilDiv(seconds, 60);
        if (minutes < 48 * 60) {
            return minutes / 60 + " h" + (minutes % 60 == 0 ? "" : " " + minutes % 60 + " min");
        }
        long days = ceilDiv(minutes, 24 * 60);
        return days + " days";
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    /** The exact duration in milliseconds, or null when {@code text} is not one duration. */
    static BigDecimal millis(String text) {
        if (text == null) {
            return null;
        }
        String trimmed = text.strip();
        if (!WHOLE.matcher(trimmed).matches()) {
            return null;
        }
        BigDecimal total = BigDecimal.ZERO;
        Matcher component = COMPONENT_PARTS.matcher(trimmed);
        while (component.find()) {
            BigDecimal number = decimal(component.group(1));
            if (number == null) {
                return null;
            }
            total = total.add(number.multiply(UNITS.get(component.group(2).toLowerCase(Locale.ROOT))));
        }
        return total;
    }

    /**
     * A plain non-negative decimal ({@code "3"}, {@code "0.5"}, {@code "1500.5"}, {@code ".5"}), or null for anything
     * else: blank, signs, exponents, {@code NaN}, more than {@value #MAX_INTEGER_DIGITS} digits before the point or
     * more than {@value #MAX_FRACTION_DIGITS} after it. Leading and trailing blanks are ignored.
     */
    static BigDecimal decimal(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = DECIMAL.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        String integer = m.group(1);
        String fraction = m.group(2) == null ? "" : m.group(2);
        if (integer.isEmpty() && fraction.isEmpty()
                || integer.length() > MAX_INTEGER_DIGITS
                || fraction.length() > MAX_FRACTION_DIGITS) {
            return null;
        }
        return new BigDecimal((integer.isEmpty() ? "0" : integer) + (fraction.isEmpty() ? "" : "." + fraction));
    }

    private static Map<String, BigDecimal> units() {
        Map<String, BigDecimal> units = new LinkedHashMap<>();
        for (String unit : new String[] {"ns", "nsec", "nsecs", "nanosecond", "nanoseconds"}) {
            units.put(unit, NANOSECOND);
        }
        for (String unit : new String[] {"us", "µs", "μs", "usec", "usecs", "microsecond", "microseconds"}) {
            units.put(unit, MICROSECOND);
        }
        for (String unit : new String[] {"ms", "msec", "msecs", "millis", "millisecond", "milliseconds"}) {
            units.put(unit, BigDecimal.ONE);
        }
        for (String unit : new String[] {"s", "sec", "secs", "second", "seconds"}) {
            units.put(unit, SECOND);
        }
        for (String unit : new String[] {"m", "min", "mins", "minute", "minutes"}) {
            units.put(unit, MINUTE);
        }
        for (String unit : new String[] {"h", "hr", "hrs", "hour", "hours"}) {
            units.put(unit, HOUR);
        }
        for (String unit : new String[] {"d", "day", "days"}) {
            units.put(unit, DAY);
        }
        return Map.copyOf(units);
    }
}
