package dev.rebound.retry;

import java.util.regex.Pattern;

/**
 * The window of a limit, read from its text: a minute (or a second), or an hour and more (a day, a week, a month, a
 * 5-hour session, a wall-clock reset). It decides whether a limit is a rate limit that ends in seconds or a usage limit
 * that a retry after a second only hits again, and the {@link UsageLimitReason} of a usage limit.
 */
final class LimitPeriods {
    private static final NamedPattern PER_MINUTE = NamedPattern.of(
            "per-minute",
            "per[ _-]?min(?:ute)?(?:\\b|_)|PerMinute|(?<![A-Za-z])[RT]PM(?![A-Za-z])"
                    + "|per[ _-]?second(?:\\b|_)|\\bRPS\\b");
    /** A window of an hour or more: such a limit does not end in seconds. */
    private static final NamedPattern LONGER_PERIOD = NamedPattern.of(
            "longer-period",
            "per[ _-]?(?:hour|day|week|month)(?:\\b|_)|Per(?:Hour|Day|Week|Month)|By(?:Day|Week|Month)\\b"
                    + "|(?<![A-Za-z-])(?:hourly|daily|weekly|monthly) (?:[\\w.()-]+ )?(?:limit|quota|cap|allowance"
                    + "|allocation|usage|requests?|tokens?|messages?|credits?|spend(?:ing)?)s?\\b"
                    + "|\\b(?:DAILY|WEEKLY|MONTHLY|HOURLY)_[A-Z_]+|\\b(?:hourly|daily|weekly|monthly) (?:limit|quota|cap)"
                    + "|\\btoday['’]s (?:free )?(?:usage|quota|limit|allowance)|\\b(?:requests?|messages?|tokens?) today\\b"
                    + "|\\b(?:come back|until|resets?|wait until) tomorrow\\b"
                    + "|\\b(?:7|seven|30)-day (?:window|limit|usage|quota)|\\b24[- ]?hours? (?:period|window|limit)"
                    + "|\\bper (?:24 ?h(?:ours)?|calendar day|86400 ?s(?:econds)?)\\b|每日|每天|每周|每月|\\d+ ?小时"
                    + "|(?<![A-Za-z])[RT]PD(?![A-Za-z])"
                    + "|\\b(?:5|five)-hour (?:limit|window|usage)|\\bsession (?:usage )?limit|/ ?(?:hour|day|week|month)\\b"
                    + "|\\bper \\d+ ?(?:hours?|days?|weeks?|months?)\\b");
    /** A wait of hours or days the text names for the limit: the limit outlasts minutes wherever it is said. */
    private static final NamedPattern LONGER_WAIT = NamedPattern.of(
            "longer-wait",
            "(?:replenished|reset|refilled) in \\d+\\.\\d{1,2}:\\d{2}:\\d{2}"
                    + "|\\b(?:try again|retry|come back|resets?|reset) (?:in|after) (?:about |~)?\\d+(?:\\.\\d+)?\\s*"
                    + "(?:days?|d|hours?|hrs?|h)(?![a-z])");
    /** A quota that Google reports as violated and whose id names an hour or more: it is spent, whatever else. */
    private static final NamedPattern VIOLATED_LONGER_QUOTA =
            NamedPattern.of("violated-longer-quota", "\\bquota: [^)]*Per(?:Hour|Day|Week|Month)");
    /** The words of a sentence that says which limit was exceeded. */
    private static final NamedPattern EXCEEDED = NamedPattern.of(
            "exceeded", "exceed|reached|\\bhit\\b|too many|used (?:all|up)|exhausted|limited to|run out|ran out");
    /** Sentences end at a period, semicolon, mark or line break; a parenthesis after the period belongs to it. */
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.;!?。])\\s+(?!\\()|\\n");
    /** Words that make a sentence speak of a limit: a window named elsewhere ("requests per day") is not one. */
    private static final NamedPattern LIMIT_CONTEXT = NamedPattern.of(
            "limit-context",
            "limit|quota|\\bcap(?:s|ped)?\\b|allowance|allocation|exceed|reached|too many|\\brate\\b|throttl|\\bused\\b"
                    + "|\\bmax(?:imum)?\\b"
                    + "|usage|上限|限额|配额|额度");

    private static final NamedPattern PLAN =
            NamedPattern.of("plan", "plan limit|upgrade (?:your plan|to )|subscription");

    private LimitPeriods() {}

    /** Whether the text names a per-minute (or per-second) window. */
    static boolean namesAMinute(String text) {
        return PER_MINUTE.foundIn(text);
    }

    /**
     * Whether the limit named in {@code text} lasts an hour or more: a per-day or longer window, a violated Google
     * quota whose id names one, or a reset at a time of day or on a date. Such a limit is a usage limit even when the
     * provider calls it a rate limit: retrying it after a second only earns another refusal. When the text names a
     * per-minute window too, the sentence that says what was exceeded decides, and a tie goes to the minute.
     */
    static boolean outlastsMinutes(String text) {
        if (text == null
                || VIOLATED_LONGER_QUOTA.foundIn(text)
                || LONGER_WAIT.foundIn(text)
                || WallClockResets.mentioned(text)) {
            return text != null;
        }
        boolean longer = false;
        for (String sentence : SENTENCE_END.split(text)) {
            longer |= LONGER_PERIOD.foundIn(sentence) && LIMIT_CONTEXT.foundIn(sentence);
        }
        if (!longer) {
            return false;
        }
        if (!PER_MINUTE.foundIn(text)) {
            return true;
        }
        // Both windows are named ("60 requests per minute exceeded. Free keys are also capped at 1000 per day."): the
        // sentence that says what was exceeded decides; when none does, the shorter one, which locks nobody out.
        for (String sentence : SENTENCE_END.split(text)) {
            if (EXCEEDED.foundIn(sentence)) {
                if (PER_MINUTE.foundIn(sentence)) {
                    return false;
                }
                if (LONGER_PERIOD.foundIn(sentence)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The period of a usage limit: {@link UsageLimitReason#QUOTA} for an hour or more (a day's quota that is exhausted
     * outlasts any per-minute one named beside it) or a plan limit, {@link UsageLimitReason#PER_MINUTE} when the text
     * names only a per-minute (or per-second) budget, else {@link UsageLimitReason#UNKNOWN}.
     */
    static UsageLimitReason period(String text) {
        if (outlastsMinutes(text)) {
            return UsageLimitReason.QUOTA;
        }
        if (namesAMinute(text)) {
            return UsageLimitReason.PER_MINUTE;
        }
        return PLAN.foundIn(text) ? UsageLimitReason.QUOTA : UsageLimitReason.UNKNOWN;
    }
}
