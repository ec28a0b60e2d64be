package dev.rebound.retry;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.Month;
import java.time.MonthDay;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the wall-clock resets of subscription and quota limits from error text: "Your limit will reset at 9:30 AM",
 * "resets 5am (Europe/Berlin)", "resets at 14:00 UTC", "try again at Jan 5th, 2026 9:30 AM", "resets on
 * 2026-01-05T09:30:00Z", "resets Monday at 9am", "resets tomorrow at 08:00", and Claude Code's
 * {@code usage limit reached|1736960400} and Codex's {@code "resets_at":1775317531} (epoch seconds); a date may also be
 * written the Portuguese and Spanish way ({@code 10 de jul. de 2026, 11:52}), "midnight" and "noon" are times, US zone
 * names (Pacific, Eastern...) are zones, and Chinese gateways' {@code 将在 2026-08-25 07:41:44 重置} is read too.
 *
 * <p>A time without a date is its <em>next occurrence</em> after now: 9:30 AM read at 10:00 is tomorrow's. A date
 * without a year is its next occurrence too. The time is local — the zone of the clock Rebound runs with — unless the
 * text names one (UTC, GMT±h, an offset, an IANA zone such as {@code Europe/Berlin}, or a common abbreviation such as
 * PST). A bare hour needs "am" or "pm" ("reset at 5" could be anything); a 24-hour time needs its minutes
 * ({@code 14:00}). Pure and thread-safe; never throws.
 */
final class WallClockResets {
    private static final int FLAGS = Pattern.CASE_INSENSITIVE;
    private static final String MONTHS = "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
            + "|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
    private static final String WEEKDAYS = "mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?"
            + "|fri(?:day)?|sat(?:urday)?|sun(?:day)?";
    /** A time of day: an hour with am/pm ({@code 5am}, {@code 9:30 p.m.}), or hours and minutes ({@code 14:00}). */
    private static final String TIME = "\\d{1,2}(?:[:.]\\d{2})?(?::\\d{2})?\\s*[ap]\\.?\\s*m\\b\\.?"
            + "|\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\.\\d+)?|midnight|noon";

    private static final Pattern TWELVE_HOUR =
            Pattern.compile("(\\d{1,2})(?:[:.](\\d{2}))?(?::\\d{2})?\\s*([ap])\\.?\\s*m\\.?", FLAGS);
    private static final Pattern TWENTY_FOUR_HOUR = Pattern.compile("(\\d{1,2}):(\\d{2})(?::(\\d{2}))?(?:\\.\\d+)?");
    /**
     * A zone after a time: UTC or GMT with an optional offset, Z, an offset, an IANA zone or a common abbreviation;
     * the last two case-sensitively, so that ordinary words are not read as zones.
     */
    private static final String ZONE = "(?:\\s*(?<zone>\\(?(?:UTC|GMT)(?:\\s*[+-]\\s*\\d{1,2}(?::?\\d{2})?)?\\)?"
            + "|(?-i:Z)\\b|[+-]\\d{2}:?\\d{2}\\b|(?-i:\\(?[A-Z][A-Za-z_]+(?:/[A-Za-z0-9_+-]+)+\\)?)"
            + "|(?-i:\\(?(?:PST|PDT|MST|MDT|CST|CDT|EST|EDT|AKST|AKDT|HST|CET|CEST|EET|EEST|WET|WEST|BST|IST|JST"
            + "|KST|AEST|AEDT|ACST|AWST|NZST|NZDT|SGT|HKT|PT|ET|CT|MT)\\)?)\\b|(?-i:(?:Pacific|Eastern|Central|Mountain)"
            + "(?: [Tt]ime)?)\\b))?";
    /** The words that announce a reset; what follows them is read by the {@link #FORMS}. */
    private static final Pattern LEAD = Pattern.compile(
            "(?<!(?:connection|socket|stream)\\s)\\b(?<lead>next reset|reset time"
                    + "|resets?|renews?|refreshes|unlocks?|replenish(?:es)?|(?:try|retry|check back|come back)(?:\\s+again)?"
                    + "|available(?:\\s+again)?|(?:be |is |are |will be )?(?:lifted|cleared|restored)|(?:wait )?until)\\s*:?\\s+"
                    + "(?:(?:automatically|again|daily)\\s+)?(?:(?<prep>at|on|after|by|from)\\s+)?|(?<chinese>将在|将于|会在|將在|將於)\\s*",
            FLAGS);
    /** The forms of a date and time, tried in order right after a lead. */
    private static final List<Pattern> FORMS = List.of(
            Pattern.compile(
                    "(?<iso>\\d{4}-\\d{2}-\\d{2})(?:[T ](?<time>\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\.\\d+)?))?" + ZONE,
                    FLAGS),
            Pattern.compile(
                    "(?:(?:" + WEEKDAYS + "),?\\s+)?(?<month>" + MONTHS + ")\\.?\\s+(?<day>\\d{1,2})"
                            + "(?:st|nd|rd|th)?\\b(?:,?\\s+(?<year>\\d{4})\\b)?(?:,?\\s+(?:at\\s+)?(?<time>" + TIME
                            + "))?"
                            + ZONE,
                    FLAGS),
            Pattern.compile(
                    "(?<day>\\d{1,2})(?:st|nd|rd|th)?\\s+(?:de\\s+)?(?<month>" + MONTHS + ")\\b\\.?"
                            + "(?:\\s+de)?(?:,?\\s+(?<year>\\d{4})\\b)?"
                            + "(?:,?\\s+(?:at\\s+)?(?<time>" + TIME + "))?" + ZONE,
                    FLAGS),
            Pattern.compile(
                    "(?<weekday>" + WEEKDAYS + "|tomorrow|today)\\b,?\\s+(?:at\\s+)?(?<time>" + TIME + ")" + ZONE,
                    FLAGS),
            Pattern.compile("(?<time>" + TIME + ")" + ZONE + "(?:\\s+(?<weekday>tomorrow|today)\\b)?", FLAGS));
    /** Claude Code's subscription limit: {@code Claude AI usage limit reached|1736960400}. */
    private static final Pattern EPOCH =
            Pattern.compile("limit reached\\|(\\d{10})\\b|\"resets?_at\"\\s*:\\s*(\\d{10})\\b", FLAGS);

    private static final Map<String, String> ABBREVIATIONS = Map.ofEntries(
            Map.entry("PST", "America/Los_Angeles"),
            Map.entry("PDT", "America/Los_Angeles"),
            Map.entry("MST", "America/Denver"),
            Map.entry("MDT", "America/Denver"),
            Map.entry("CST", "America/Chicago"),
            Map.entry("CDT", "America/Chicago"),
            Map.entry("EST", "America/New_York"),
            Map.entry("EDT", "America/New_York"),
            Map.entry("AKST", "America/Anchorage"),
            Map.entry("AKDT", "America/Anchorage"),
            Map.entry("HST", "Pacific/Honolulu"),
            Map.entry("CET", "Europe/Paris"),
            Map.entry("CEST", "Europe/Paris"),
            Map.entry("EET", "Europe/Athens"),
            Map.entry("EEST", "Europe/Athens"),
            Map.entry("WET", "Europe/Lisbon"),
            Map.entry("WEST", "Europe/Lisbon"),
            Map.entry("BST", "Europe/London"),
            Map.entry("IST", "Asia/Kolkata"),
            Map.entry("JST", "Asia/Tokyo"),
            Map.entry("KST", "Asia/Seoul"),
            Map.entry("AEST", "Australia/Sydney"),
            Map.entry("AEDT", "Australia/Sydney"),
            Map.entry("ACST", "Australia/Adelaide"),
            Map.entry("AWST", "Australia/Perth"),
            Map.entry("NZST", "Pacific/Auckland"),
            Map.entry("NZDT", "Pacific/Auckland"),
            Map.entry("SGT", "Asia/Singapore"),
            Map.entry("HKT", "Asia/Hong_Kong"),
            Map.entry("Pacific", "America/Los_Angeles"),
            Map.entry("Eastern", "America/New_York"),
            Map.entry("Central", "America/Chicago"),
            Map.entry("Mountain", "America/Denver"),
            Map.entry("PT", "America/Los_Angeles"),
            Map.entry("ET", "America/New_York"),
            Map.entry("CT", "America/Chicago"),
            Map.entry("MT", "America/Denver"));

    /** A reset found in the text, with where it starts (for tie-breaking). */
    record Reset(Instant at, int start) {}

    private WallClockResets() {}

    /**
     * Every reset the text names, each as the instant it happens, read relative to {@code now} in the local
     * {@code zone}; none when now cannot be placed in the zone (an instant beyond the calendar's range).
     */
    static List<Reset> find(String text, Instant now, ZoneId zone) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        try {
            return find(text, now.atZone(zone));
        } catch (DateTimeException e) {
            return List.of();
        }
    }

    private static List<Reset> find(String text, ZonedDateTime now) {
        List<Reset> resets = new ArrayList<>();
        Matcher lead = LEAD.matcher(text);
        while (lead.find()) {
            for (Pattern form : FORMS) {
                Matcher m = form.matcher(text).region(lead.end(), text.length());
                if (m.lookingAt()) {
                    Instant at = resolve(m, lead, now);
                    if (at != null) {
                        resets.add(new Reset(at, lead.start()));
                    }
                    break;
                }
            }
        }
        Matcher epoch = EPOCH.matcher(text);
        while (epoch.find()) {
            String seconds = epoch.group(1) != null ? epoch.group(1) : epoch.group(2);
            resets.add(new Reset(Instant.ofEpochSecond(Long.parseLong(seconds)), epoch.start()));
        }
        return resets;
    }

    /** Whether the text names a wall-clock reset at all (a limit that ends at a time of day or on a date). */
    static boolean mentioned(String text) {
        return !find(text, Instant.EPOCH, ZoneOffset.UTC).isEmpty();
    }

    private static Instant resolve(Matcher m, Matcher lead, ZonedDateTime now) {
        try {
            ZoneId zone = zone(group(m, "zone"), now.getZone());
            ZonedDateTime local = now.withZoneSameInstant(zone);
            String written = group(m, "time");
            LocalTime time = written == null ? null : time(written);
            if (written != null && time == null) {
                return null;
            }
            if (group(m, "iso") != null) {
                LocalDate date = LocalDate.parse(group(m, "iso"));
                return date.atTime(time == null ? LocalTime.MIDNIGHT : time)
                        .atZone(zone)
                        .toInstant();
            }
            if (group(m, "month") != null) {
                MonthDay monthDay = MonthDay.of(month(group(m, "month")), Integer.parseInt(group(m, "day")));
                LocalTime at = time == null ? LocalTime.MIDNIGHT : time;
                if (group(m, "year") != null) {
                    return monthDay.atYear(Integer.parseInt(group(m, "year")))
                            .atTime(at)
                            .atZone(zone)
                            .toInstant();
                }
                ZonedDateTime candidate =
                        monthDay.atYear(local.getYear()).atTime(at).atZone(zone);
                return (candidate.isAfter(local)
                                ? candidate
                                : monthDay.atYear(local.getYear() + 1)
                                        .atTime(at)
                                        .atZone(zone))
                        .toInstant();
            }
            if (ambiguousDuration(lead, m, written)) {
                return null;
            }
            String day = group(m, "weekday");
            if (day == null || day.equalsIgnoreCase("today")) {
                ZonedDateTime candidate = local.toLocalDate().atTime(time).atZone(zone);
                return (candidate.isAfter(local)
                                ? candidate
                                : local.toLocalDate().plusDays(1).atTime(time).atZone(zone))
                        .toInstant();
            }
            if (day.equalsIgnoreCase("tomorrow")) {
                return local.toLocalDate().plusDays(1).atTime(time).atZone(zone).toInstant();
            }
            LocalDate date = local.toLocalDate().with(TemporalAdjusters.nextOrSame(weekday(day)));
            ZonedDateTime candidate = date.atTime(time).atZone(zone);
            return (candidate.isAfter(local) ? candidate : candidate.plusWeeks(1)).toInstant();
        } catch (DateTimeException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * "Retry after 1:30" may mean a minute and a half: a 24-hour time after "retry"/"try again" is read as a clock
     * time only with "at" or a zone ("try again after 14:00 UTC").
     */
    private static boolean ambiguousDuration(Matcher lead, Matcher m, String time) {
        if (lead.group("lead") == null || group(m, "zone") != null) {
            return false;
        }
        String word = lead.group("lead").toLowerCase(Locale.ROOT);
        boolean retryWord = word.startsWith("try") || word.startsWith("retry");
        return retryWord
                && !"at".equalsIgnoreCase(lead.group("prep"))
                && TWENTY_FOUR_HOUR.matcher(time).matches();
    }

    /** The time of day written ({@code 5am}, {@code 9:30 PM}, {@code 14:00}), or null when it is not one. */
    private static LocalTime time(String written) {
        if (written.equalsIgnoreCase("midnight")) {
            return LocalTime.MIDNIGHT;
        }
        if (written.equalsIgnoreCase("noon")) {
            return LocalTime.NOON;
        }
        Matcher twelve = TWELVE_HOUR.matcher(written.strip());
        if (twelve.matches()) {
            int hour = Integer.parseInt(twelve.group(1));
            if (hour < 1 || hour > 12) {
                return null;
            }
            int minute = twelve.group(2) == null ? 0 : Integer.parseInt(twelve.group(2));
            boolean pm = twelve.group(3).equalsIgnoreCase("p");
            return LocalTime.of(hour % 12 + (pm ? 12 : 0), minute);
        }
        Matcher twentyFour = TWENTY_FOUR_HOUR.matcher(written.strip());
        if (twentyFour.matches()) {
            int second = twentyFour.group(3) == null ? 0 : Integer.parseInt(twentyFour.group(3));
            return LocalTime.of(Integer.parseInt(twentyFour.group(1)), Integer.parseInt(twentyFour.group(2)), second);
        }
        return null;
    }

    /** A named group's text, or null when the pattern has no such group or it did not take part. */
    private static String group(Matcher m, String name) {
        try {
            return m.group(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The zone a phrase names, else the local zone. */
    private static ZoneId zone(String written, ZoneId local) {
        if (written == null) {
            return local;
        }
        String zone = written.replace("(", "")
                .replace(")", "")
                .replace(" Time", "")
                .replace(" time", "")
                .replace(" ", "");
        if (zone.equals("Z")) {
            return ZoneOffset.UTC;
        }
        String upper = zone.toUpperCase(Locale.ROOT);
        if (upper.startsWith("UTC") || upper.startsWith("GMT")) {
            String offset = upper.substring(3);
            return offset.isEmpty() ? ZoneOffset.UTC : ZoneOffset.of(normalisedOffset(offset));
        }
        if (zone.startsWith("+") || zone.startsWith("-")) {
            return ZoneOffset.of(normalisedOffset(zone));
        }
        String abbreviation = ABBREVIATIONS.get(zone);
        try {
            return ZoneId.of(abbreviation != null ? abbreviation : zone);
        } catch (DateTimeException e) {
            // "and/or" after a time is no zone: the time is local.
            return local;
        }
    }

    /** {@code +2} → {@code +02:00}, {@code -0530} → {@code -05:30}, {@code +05:30} as it is. */
    private static String normalisedOffset(String offset) {
        String sign = offset.substring(0, 1);
        String digits = offset.substring(1).replace(":", "");
        if (digits.length() <= 2) {
            return sign + (digits.length() == 1 ? "0" : "") + digits + ":00";
        }
        String hours = digits.substring(0, digits.length() - 2);
        return sign + (hours.length() == 1 ? "0" : "") + hours + ":" + digits.substring(digits.length() - 2);
    }

    private static Month month(String written) {
        String prefix = written.substring(0, 3).toUpperCase(Locale.ROOT);
        for (Month month : Month.values()) {
            if (month.name().startsWith(prefix)) {
                return month;
            }
        }
        throw new IllegalArgumentException(written);
    }

    private static DayOfWeek weekday(String written) {
        String prefix = written.substring(0, 3).toUpperCase(Locale.ROOT);
        for (DayOfWeek day : DayOfWeek.values()) {
            if (day.name().startsWith(prefix)) {
                return day;
            }
        }
        throw new IllegalArgumentException(written);
    }
}
