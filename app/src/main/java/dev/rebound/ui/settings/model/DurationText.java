package dev.rebound.ui.settings.model;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as a person writes and reads it, for fields that settings.json keeps in milliseconds.
 *
 * <p><b>Reading</b> ({@link #parse}): one or more parts, each a number and a unit, larger units first and each unit once:
 * {@code 90s}, {@code 1m30s}, {@code 1 min 30 s}, {@code 500 ms}, {@code 2h}, {@code 1.5 s}, {@code 1 h 30 min}.
 * Units, in any case: {@code ms} (msec, millisecond, milliseconds), {@code s} (sec, secs, second, seconds), {@code m}
 * (min, mins, minute, minutes), {@code h} (hr, hrs, hour, hours), {@code d} (day, days). Spaces are optional around
 * numbers and units, and parts may be joined by a comma or "and" ({@code 1 hour and 30 minutes}). A number may have a decimal point ({@code 1.5 s}, {@code 0.5 min}) as long as the whole is a whole
 * number of milliseconds. A bare {@code 0} is accepted (the "no cap" and "none" of some settings); any other bare
 * number is refused, because it could mean milliseconds (settings.json's unit) or seconds (what most people mean), and
 * a wrong guess is off by a factor of a thousand. Refused too: negative numbers, a decimal comma (in {@code 1,500} it
 * could be a thousands separator), unknown units, a unit twice or out of order, and anything over
 * {@link Long#MAX_VALUE} milliseconds. Each refusal says what to write instead.
 *
 * <p><b>Writing</b> ({@link #format}): hours, minutes and seconds, each only when not zero ({@code 1 h 30 min},
 * {@code 5 min}, {@code 1 min 30 s}); the milliseconds as a decimal of the seconds ({@code 1.234 s}), or alone below a
 * second ({@code 500 ms}); {@code 0} for zero. What it writes reads back to the same number.
 */
public final class DurationText {
    private static final long SECOND = 1_000;
    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;

    /** The units by every spelling accepted, as milliseconds per unit. */
    private static final Map<String, Long> UNITS = Map.ofEntries(
            Map.entry("ms", 1L),
            Map.entry("msec", 1L),
            Map.entry("msecs", 1L),
            Map.entry("millisecond", 1L),
            Map.entry("milliseconds", 1L),
            Map.entry("s", SECOND),
            Map.entry("sec", SECOND),
            Map.entry("secs", SECOND),
            Map.entry("second", SECOND),
            Map.entry("seconds", SECOND),
            Map.entry("m", MINUTE),
            Map.entry("min", MINUTE),
            Map.entry("mins", MINUTE),
            Map.entry("minute", MINUTE),
            Map.entry("minutes", MINUTE),
            Map.entry("h", HOUR),
            Map.entry("hr", HOUR),
            Map.entry("hrs", HOUR),
            Map.entry("hour", HOUR),
            Map.entry("hours", HOUR),
            Map.entry("d", DAY),
            Map.entry("day", DAY),
            Map.entry("days", DAY));

    /** One part: a number, letters (the unit, possibly missing or unknown), then maybe a comma or "and". */
    private static final Pattern PART = Pattern.compile("(\\d*\\.?\\d*)\\s*(\\p{L}*)\\s*(?:(?:,|\\band\\b)\\s*)?");

    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final String EXAMPLES = "such as 30 s, 5 min or 1 min 30 s";

    private DurationText() {}

    /** What a text reads as: a number of milliseconds, or why it is refused. */
    public sealed interface Result {}

    /** A duration, in milliseconds (never negative). */
    public record Millis(long value) implements Result {}

    /** Not a duration; {@code reason} says why and what to write, for a person. */
    public record Refused(String reason) implements Result {}

    /** Reads a duration as typed; see the class comment for what is accepted. */
    public static Result parse(String text) {
        String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (s.isEmpty()) {
            return new Refused("enter a duration, " + EXAMPLES);
        }
        if (s.startsWith("-")) {
            return new Refused("a duration cannot be negative");
        }
        if (s.matches("\\d+(\\.0*)?")) {
            return new BigDecimal(s).signum() == 0
                    ? new Millis(0)
                    : new Refused("add a unit: " + s + " s or " + s + " ms");
        }
        if (s.matches(".*\\d,\\d.*")) {
            return new Refused("use a point for decimals, as in 1.5 s");
        }
        BigDecimal total = BigDecimal.ZERO;
        long previousUnit = Long.MAX_VALUE;
        Matcher part = PART.matcher(s);
        int at = 0;
        while (at < s.length()) {
            if (!part.find(at) || part.start() != at || part.end() == at) {
                return new Refused("'" + s.substring(at) + "' is not a duration; write one " + EXAMPLES);
            }
            String number = part.group(1);
            String unitName = part.group(2);
            if (number.isEmpty() || number.equals(".")) {
                return new Refused("'" + s.substring(at).strip() + "' is not a duration; write one " + EXAMPLES);
            }
            if (unitName.isEmpty()) {
                return new Refused(
                        part.end() < s.length()
                                ? "'" + s.substring(part.end()) + "' is not a duration; write one " + EXAMPLES
                                : "add a unit after " + number + ": " + number + " s or " + number + " ms");
            }
            Long unit = UNITS.get(unitName);
            if (unit == null) {
                return new Refused("'" + unitName + "' is not a unit; use ms, s, min or h");
            }
            if (unit >= previousUnit) {
                return new Refused("write larger units first and each once, as in 1 min 30 s");
            }
            previousUnit = unit;
            total = total.add(new BigDecimal(number).multiply(BigDecimal.valueOf(unit)));
            if (total.compareTo(MAX) > 0) {
                return new Refused("too long to count in milliseconds");
            }
            at = part.end();
        }
        if (total.stripTrailingZeros().scale() > 0) {
            return new Refused("give a whole number of milliseconds; the smallest step is 1 ms");
        }
        return new Millis(total.longValueExact());
    }

    /**
     * Writes a duration in its canonical short form ({@code 500 ms}, {@code 30 s}, {@code 1 min 30 s}, {@code 5 min},
     * {@code 1 h}, {@code 1.234 s}, {@code 0}), which {@link #parse} reads back to {@code millis}.
     *
     * @throws IllegalArgumentException when {@code millis} is negative
     */
    public static String format(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("a duration cannot be negative: " + millis);
        }
        if (millis == 0) {
            return "0";
        }
        if (millis < SECOND) {
            return millis + " ms";
        }
        StringBuilder out = new StringBuilder();
        long hours = millis / HOUR;
        long minutes = millis % HOUR / MINUTE;
        long seconds = millis % MINUTE / SECOND;
        long rest = millis % SECOND;
        if (hours > 0) {
            out.append(hours).append(" h");
        }
        if (minutes > 0) {
            out.append(out.isEmpty() ? "" : " ").append(minutes).append(" min");
        }
        if (seconds > 0 || rest > 0) {
            out.append(out.isEmpty() ? "" : " ").append(seconds);
            if (rest > 0) {
                out.append('.').append(String.format(Locale.ROOT, "%03d", rest).replaceAll("0+$", ""));
            }
            out.append(" s");
        }
        return out.toString();
    }
}
