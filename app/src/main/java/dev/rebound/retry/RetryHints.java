package dev.rebound.retry;

import dev.rebound.transcript.ProviderFailure;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the wait a provider asked for from a failed call (§4 of the retry policy): the first source present and
 * parseable, in this order:
 * <ol>
 *   <li>{@code retry-after-ms} (milliseconds);</li>
 *   <li>{@code retry-after} (seconds, or an HTTP date);</li>
 *   <li>a Google per-day quota ({@code quota: GenerateRequestsPerDayPerProjectPerModel-FreeTier} among the error's
 *       qualifiers, from a {@code QuotaFailure}): the next midnight in Pacific time, when Google resets daily quotas.
 *       Such errors carry a {@code retryDelay} of seconds that does not mean the quota is back, so it is not
 *       believed;</li>
 *   <li>phrases in the error text ({@code Please retry in 47.4s}, {@code "retryDelay": "38s"}, {@code try again in
 *       20ms}, {@code reset after 1h2m3s}, {@code retry after 6 seconds}) and wall-clock resets ({@code limits will
 *       reset at 9:30 AM}, read by {@link WallClockResets} in the clock's zone); the longest of them wins;</li>
 *   <li>{@code x-ratelimit-reset-ms};</li>
 *   <li>{@code x-ratelimit-reset} (epoch milliseconds from 10<sup>12</sup>, epoch seconds from 10<sup>9</sup>, else
 *       seconds from now);</li>
 *   <li>{@code x-ratelimit-reset-requests} / {@code -tokens} (durations; the longer wins);</li>
 *   <li>{@code anthropic-ratelimit-*-reset} (RFC 3339 timestamps; the latest wins).</li>
 * </ol>
 * Fractions of a millisecond round up; a time in the past is a wait of 0; a wait longer than {@link #MAX_DELAY_MS}
 * (7 days) is cut to it. Unparseable values are skipped. The engine decides what to do with the hint (it may only
 * extend the local backoff). Immutable and thread-safe; {@link #parse} never throws. See {@code docs/retry-hints.md}.
 */
public final class RetryHints {
    /** The longest wait a hint can ask for: 7 days. Longer asks are cut to it, so they still read as "very long". */
    public static final long MAX_DELAY_MS = 7L * 24 * 60 * 60 * 1000;
    /** From here a bare {@code x-ratelimit-reset} number is epoch seconds (2001-09-09 on); below, seconds from now. */
    static final BigDecimal EPOCH_SECONDS_FROM = new BigDecimal("1e9");
    /** From here a bare {@code x-ratelimit-reset} number is epoch milliseconds (2001-09-09 on). */
    static final BigDecimal EPOCH_MILLIS_FROM = new BigDecimal("1e12");

    private static final BigDecimal MAX_DELAY = BigDecimal.valueOf(MAX_DELAY_MS);
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final long MAX_DELAY_SECONDS = MAX_DELAY_MS / 1000;

    private static final List<String> OPENAI_RESETS = List.of("x-ratelimit-reset-requests", "x-ratelimit-reset-tokens");
    private static final List<String> ANTHROPIC_RESETS = List.of(
            "anthropic-ratelimit-requests-reset",
            "anthropic-ratelimit-tokens-reset",
            "anthropic-ratelimit-input-tokens-reset",
            "anthropic-ratelimit-output-tokens-reset");

    /** The source of a per-day quota's hint. */
    static final String PER_DAY_QUOTA_SOURCE = "quota:per-day";
    /** The source of a hint read from a wall-clock reset in the text. */
    static final String WALL_CLOCK_SOURCE = "body:resets at";

    /**
     * The patterns and tables the parsing uses, compiled on the first failure that needs a hint rather than when an
     * engine is made: building them took ~7 ms of every start, for a chat that may never fail (docs/startup.md).
     */
    private static final class Rules {
        static final String DURATION = "(" + Durations.REGEX + ")";
        /** "Connection reset after 30s" tells how a transport failed, not when a limit resets. */
        static final String NOT_A_TRANSPORT_RESET = "(?<!(?:connection|socket|stream)\\s)";

        static final List<BodyPhrase> BODY_PHRASES = List.of(
                new BodyPhrase("body:retry in", "\\bretry\\s++in\\s++" + DURATION),
                new BodyPhrase("body:retry after", "\\bretry\\s++after\\s++" + DURATION),
                new BodyPhrase("body:try again in", "\\b(?:re)?try\\s++again\\s++in\\s++" + DURATION),
                new BodyPhrase("body:reset after", NOT_A_TRANSPORT_RESET + "\\bresets?\\s++after\\s++" + DURATION),
                new BodyPhrase("body:reset in", NOT_A_TRANSPORT_RESET + "\\bresets?\\s++in\\s++" + DURATION),
                new BodyPhrase("body:retryDelay", "\\bretryDelay\\\\?\"?\\s*+[:=]\\s*+\\\\?\"?" + DURATION),
                new BodyPhrase("body:wait", "\\bwait\\s++(?:for\\s++)?" + DURATION + "\\s++before\\b"));
        /** A per-day quota named among an error's qualifiers ({@code quota: …PerDay…}), as {@code ErrorBody} writes them. */
        static final Pattern PER_DAY_QUOTA = Pattern.compile("\\bquota: [^)]*(?:PerDay|per_day)");
        /** Where Google's daily quotas reset: midnight Pacific time (Gemini API rate-limit documentation). */
        static final ZoneId GOOGLE_QUOTA_ZONE = ZoneId.of("America/Los_Angeles");

        static final Pattern LIST_SEPARATOR = Pattern.compile("\\s*,\\s*");
        static final Pattern WEEKDAY = Pattern.compile("^[A-Za-z]{3},\\s*");
        static final Pattern DATE_SPACE_TIME = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2}) ");

        private Rules() {}
    }

    private final Clock clock;

    /** Hints relative to {@code clock}'s now (dates and timestamps). */
    public RetryHints(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The wait asked for by {@code failure}'s headers or the error text, or empty when neither asks for one.
     *
     * @param failure the structured facts of the failed call (headers with lower-case names), or null
     * @param errorMessage the error message shown to people (the provider's message with our qualifiers), or null
     */
    public Optional<RetryHint> parse(ProviderFailure failure, String errorMessage) {
        Instant now = clock.instant();
        Optional<RetryHint> hint = fromHeader(failure, "retry-after-ms", Durations::decimal);
        if (hint.isEmpty()) {
            hint = fromHeader(failure, "retry-after", value -> retryAfter(value, now));
        }
        if (hint.isEmpty()) {
            hint = perDayQuota(errorMessage, now);
        }
        if (hint.isEmpty()) {
            hint = fromText(errorMessage, now, clock.getZone());
        }
        if (!rateLimited(failure)) {
            // Providers send their rate-limit reset headers on every response: they say when a bucket is full again,
            // not that the caller must wait. Only a rate-limited request (429) turns them into a wait.
            return hint;
        }
        if (hint.isEmpty()) {
            hint = fromHeader(failure, "x-ratelimit-reset-ms", Durations::decimal);
        }
        if (hint.isEmpty()) {
            hint = fromHeader(failure, "x-ratelimit-reset", value -> rateLimitReset(value, now));
        }
        if (hint.isEmpty()) {
            hint = longest(failure, OPENAI_RESETS, value -> rateLimitReset(value, now));
        }
        if (hint.isEmpty()) {
            hint = longest(failure, ANTHROPIC_RESETS, value -> rfc3339(value, now));
        }
        return hint;
    }

    /** The wait until Google's daily quotas reset (midnight, Pacific time) when the error names a per-day quota. */
    private static Optional<RetryHint> perDayQuota(String errorMessage, Instant now) {
        if (errorMessage == null || !Rules.PER_DAY_QUOTA.matcher(errorMessage).find()) {
            return Optional.empty();
        }
        ZonedDateTime pacific = now.atZone(Rules.GOOGLE_QUOTA_ZONE);
        Instant midnight = pacific.toLocalDate()
                .plusDays(1)
                .atStartOfDay(Rules.GOOGLE_QUOTA_ZONE)
                .toInstant();
        return Optional.of(new RetryHint(Duration.between(now, midnight).toMillis(), PER_DAY_QUOTA_SOURCE));
    }

    /** Whether the failure is a rate limit: HTTP 429, or an in-stream error whose code is 429. */
    private static boolean rateLimited(ProviderFailure failure) {
        if (failure == null) {
            return false;
        }
        if (failure.httpStatus() != null) {
            return failure.httpStatus() == 429;
        }
        return "429"
                .equals(failure.errorCode() == null ? null : failure.errorCode().strip());
    }

    /**
     * A header's value read by {@code reader} as milliseconds. A value with commas whose parts all parse on their own
     * is a repeated header ({@code 6, 8}): its longest part wins. Otherwise the value is read whole (an HTTP date).
     */
    private static Optional<RetryHint> fromHeader(ProviderFailure failure, String name, ValueReader reader) {
        String value = failure == null ? null : failure.header(name);
        if (value == null) {
            return Optional.empty();
        }
        BigDecimal millis = value.indexOf(',') >= 0 ? longestPart(value, reader) : null;
        if (millis == null) {
            millis = reader.millis(value);
        }
        return millis == null ? Optional.empty() : Optional.of(hint(millis, name));
    }

    /** The longest part of a comma-separated list, or null unless every part parses. */
    private static BigDecimal longestPart(String value, ValueReader reader) {
        BigDecimal longest = null;
        for (String part : Rules.LIST_SEPARATOR.split(value, -1)) {
            BigDecimal millis = reader.millis(part);
            if (millis == null) {
                return null;
            }
            longest = longest == null || millis.compareTo(longest) > 0 ? millis : longest;
        }
        return longest;
    }

    /** The longest hint among several headers; the first listed wins a tie. */
    private static Optional<RetryHint> longest(ProviderFailure failure, List<String> names, ValueReader reader) {
        RetryHint best = null;
        for (String name : names) {
            RetryHint hint = fromHeader(failure, name, reader).orElse(null);
            if (hint != null && (best == null || hint.delayMs() > best.delayMs())) {
                best = hint;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The longest wait any known phrase of the text asks for, a wall-clock reset ("resets at 9:30 AM") included; the
     * earliest phrase wins a tie.
     */
    private static Optional<RetryHint> fromText(String text, Instant now, ZoneId zone) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        RetryHint best = null;
        int bestAt = Integer.MAX_VALUE;
        for (WallClockResets.Reset reset : WallClockResets.find(text, now, zone)) {
            RetryHint hint = hint(until(reset.at(), now), WALL_CLOCK_SOURCE);
            if (best == null
                    || hint.delayMs() > best.delayMs()
                    || hint.delayMs() == best.delayMs() && reset.start() < bestAt) {
                best = hint;
                bestAt = reset.start();
            }
        }
        for (BodyPhrase phrase : Rules.BODY_PHRASES) {
            Matcher m = phrase.pattern().matcher(text);
            while (m.find()) {
                BigDecimal millis = Durations.millis(m.group(1));
                if (millis == null) {
                    continue;
                }
                RetryHint hint = hint(millis, phrase.source());
                if (best == null
                        || hint.delayMs() > best.delayMs()
                        || hint.delayMs() == best.delayMs() && m.start() < bestAt) {
                    best = hint;
                    bestAt = m.start();
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * {@code retry-after}: delta seconds (a decimal is accepted) or an HTTP date (RFC 1123); the day of the week is
     * not checked (a server that names the wrong day still means the date).
     */
    private static BigDecimal retryAfter(String value, Instant now) {
        BigDecimal seconds = Durations.decimal(value);
        if (seconds != null) {
            return seconds.multiply(THOUSAND);
        }
        String date = Rules.WEEKDAY.matcher(value.strip()).replaceFirst("");
        try {
            return until(
                    ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME)
                            .toInstant(),
                    now);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /**
     * {@code x-ratelimit-reset} and bare numbers in the OpenAI reset headers: epoch milliseconds from
     * {@link #EPOCH_MILLIS_FROM}, epoch seconds from {@link #EPOCH_SECONDS_FROM}, else seconds from now; a value with a
     * unit is a duration ({@code 6m0s}).
     */
    private static BigDecimal rateLimitReset(String value, Instant now) {
        BigDecimal number = Durations.decimal(value);
        if (number == null) {
            return Durations.millis(value);
        }
        if (number.compareTo(EPOCH_MILLIS_FROM) >= 0) {
            return until(number.setScale(0, RoundingMode.CEILING).longValueExact(), now);
        }
        if (number.compareTo(EPOCH_SECONDS_FROM) >= 0) {
            return until(
                    number.multiply(THOUSAND).setScale(0, RoundingMode.CEILING).longValueExact(), now);
        }
        return number.multiply(THOUSAND);
    }

    /**
     * An RFC 3339 timestamp: {@code 2026-12-01T10:00:30Z}, {@code 2026-12-01T12:00:30.25+02:00}; lower-case {@code t}
     * and {@code z} and a space between date and time are accepted, as RFC 3339 allows.
     */
    private static BigDecimal rfc3339(String value, Instant now) {
        String timestamp = Rules.DATE_SPACE_TIME
                .matcher(value.strip().toUpperCase(Locale.ROOT))
                .replaceFirst("$1T");
        try {
            return until(
                    OffsetDateTime.parse(timestamp, DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                            .toInstant(),
                    now);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** Milliseconds from now until an epoch-milliseconds time, 0 when it has passed. */
    private static BigDecimal until(long epochMillis, Instant now) {
        return until(Instant.ofEpochMilli(epochMillis), now);
    }

    /** Milliseconds from now until {@code then}, 0 when it has passed; never overflows (far futures are capped). */
    private static BigDecimal until(Instant then, Instant now) {
        if (!then.isAfter(now)) {
            return BigDecimal.ZERO;
        }
        long seconds = then.getEpochSecond() - now.getEpochSecond();
        if (seconds > MAX_DELAY_SECONDS + 1) {
            return MAX_DELAY;
        }
        long nanos = seconds * 1_000_000_000L + then.getNano() - now.getNano();
        return BigDecimal.valueOf(nanos).movePointLeft(6);
    }

    /** A hint of {@code millis} rounded up to whole milliseconds and cut to {@link #MAX_DELAY_MS}. */
    private static RetryHint hint(BigDecimal millis, String source) {
        BigDecimal capped = millis.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : millis;
        return new RetryHint(capped.setScale(0, RoundingMode.CEILING).longValueExact(), source);
    }

    /** Reads one header value (or one element of a list) as milliseconds, or null. */
    @FunctionalInterface
    private interface ValueReader {
        BigDecimal millis(String value);
    }

    /** A phrase of the error text that carries a wait, and the source name it reports. */
    private record BodyPhrase(String source, Pattern pattern) {
        BodyPhrase(String source, String regex) {
            this(source, Pattern.compile(regex, Pattern.CASE_INSENSITIVE));
        }
    }
}
