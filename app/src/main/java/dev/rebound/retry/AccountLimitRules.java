package dev.rebound.retry;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Wording of account and plan limits (§5 of the retry policy), shared by the structured and the text layer: billing or
 * credit exhaustion, a missing entitlement, a model at capacity, and usage or quota limits, with the period that
 * decides their {@link UsageLimitReason}.
 *
 * <p>The patterns are deliberately narrower than "anything mentioning billing or quota": Gemini's per-minute limit says
 * "please check your plan and billing details", Azure's rate limit links to {@code aka.ms/oai/quotaincrease} and Groq's
 * to {@code console.groq.com/settings/billing}; none of these is a billing failure. Likewise an upsell attached to a
 * limit ("Need more tokens? Upgrade to Dev Tier today") is no entitlement gate: the limit ends by itself.
 */
final class AccountLimitRules {
    private static final List<NamedPattern> BILLING = List.of(
            NamedPattern.of("credit-balance-too-low", "credit balance is too low"),
            NamedPattern.of("insufficient-credits", "insufficient[ _](?:credits?|balance|funds|account balance)"),
            NamedPattern.of("requires-more-credits", "requires more credits|out of credits|not enough credits"
                    + "|credits? (?:have been |has been |are |is )?(?:exhausted|depleted|used up)"
                    + "|(?:used|exhausted|run out of|ran out of) (?:all )?(?:(?:your|its|their|the|available) )*credits"
                    + "|purchase more credits|positive (?:credit )?balance"),
            NamedPattern.of("payment-required", "payment required"),
            NamedPattern.of("spend-limit", "reached your specified (?:workspace )?API usage limits?"
                    + "|(?:spend(?:ing)?|budget) (?:limit|cap) (?:has been |was )?(?:reached|exceeded|hit)"
                    + "|(?:reach(?:ed|ing)?|exceed(?:ed|ing)?|hit) (?:(?:your|its|their|the|a|monthly|team|key) )*"
                    + "spend(?:ing)? (?:limit|cap)|budget has been exceeded|exceeded (?:your |the )?(?:monthly |team "
                    + "|key )?budget|failure to pay|(?:unpaid|past|overdue) invoices?"),
            NamedPattern.of("billing-hard-limit", "billing hard limit"),
            NamedPattern.of("billing-code", "\\b(?:insufficient_quota|billing_not_active|insufficient_user_quota"
                    + "|exceeded_current_quota_error)\\b"),
            NamedPattern.of("free-tier-exhausted", "free (?:tier|trial|credits?|allowance)\\b[^.]{0,40}?(?:has been |have "
                    + "been |is |are )?(?:exhausted|used up|depleted|expired|ended)"),
            NamedPattern.of("balance-chinese", "余额不足|欠费|账户余额|额度不足"),
            NamedPattern.of("credits-exceeded", "\\b(?:exceeded|used|exhausted|spent) (?:all (?:of )?)?(?:your |the |its )?"
                    + "(?:monthly |daily |free |included |available |prepaid |trial )*credits?\\b"
                    + "|quota\\b[^.]{0,60}?\\bis not enough|not enough quota"));

    /**
     * A plan or key that lacks what the request needs. Phrased as a requirement or an access rule — never as a limit
     * that was reached — so upsells on ordinary limits do not match.
     */
    /** A free-tier quota of zero for a model: the plan has no allowance for it at all. */
    private static final String ZERO_QUOTA = "entitlement-zero-quota";
    private static final List<NamedPattern> ENTITLEMENT = List.of(
            NamedPattern.of("entitlement-required",
                    "\\b(?:extra usage|a paid (?:plan|tier|account|subscription)|an? (?:upgraded|higher|pro|plus"
                            + "|premium|enterprise|team|paid) (?:plan|tier|account|subscription)|(?:a |an )?"
                            + "(?:subscription|billing (?:setup|account)|paid credits)) (?:is|are) required\\b"
                            + "|\\brequires? (?:a |an )?(?:paid|upgraded|higher|pro|plus|premium|enterprise|team|max)"
                            + "\\b[\\w -]{0,30}?\\b(?:plan|tier|account|subscription|access)\\b"
                            + "|\\brequire (?:a |an )?[\\w-]+ (?:plan|subscription|tier)\\b|\\bupgrade required\\b"
                            + "|\\benable extra usage\\b"),
            NamedPattern.of("entitlement-not-available",
                    "\\bnot (?:available|included|supported|enabled|allowed) (?:on|in|for|with|under) (?:your|the|this"
                            + "|a) (?:current |free |account'?s? )?(?:plan|tier|subscription|account|organization"
                            + "|key|free tier)\\b|\\b(?:is )?only available (?:to|for|on) (?:paid|pro|plus|premium"
                            + "|enterprise|team|higher|upgraded|organizations)\\b|access to this model is (?:only )?"
                            + "(?:allowed|available|restricted)|\\ballowed (?:only )?for [\\w ]{0,30}?\\btier\\b"
                            + "|(?:does not|doesn't) have a free (?:quota )?tier|\\bno free (?:quota )?tier\\b"
                            + "|too many free trial|free trial (?:accounts?|users?) (?:are|is) not"
                            + "|(?:free|trial) (?:credits?|tier|keys?|accounts?|users?) (?:\\w+ )?(?:have|has|is|are) "
                            + "(?:temporarily )?restricted|\\b(?:usage )?tier \\d+ (?:or|and) (?:higher|above)\\b"
                            + "|\\bnot allowed to use (?:this|the) model|\\bnot part of (?:your|the) (?:plan|subscription)"
                            + "|\\b(?:does not|doesn't) (?:include|support)\\b[^.]{0,40}?\\b(?:access|feature|model|context"
                            + "|window)"),
            NamedPattern.of("entitlement-no-access",
                    "\\b(?:does not|doesn't|do not|don't) have access to (?:this|the|that)?\\s*(?:model|feature|"
                            + "beta|tier|long context)|\\bnot (?:entitled|eligible) (?:to use|for this model|for this "
                            + "feature|to access)\\b"),
            NamedPattern.of(ZERO_QUOTA,
                    "(?:quota|free[_ ]tier)\\b[^\\n]{0,200}?(?<!remaining )(?<!remaining: )\\blimit:? 0(?!\\d|[.,]\\d)"));
    /**
     * An upsell on an ordinary limit ("a paid plan is required for higher limits", "Higher limits are only available
     * for paid accounts"): the limit ends by itself, so it is no entitlement gate.
     */
    private static final NamedPattern HIGHER_LIMITS_UPSELL = NamedPattern.of("higher-limits-upsell",
            "\\b(?:higher|more|increased?|raise[ds]?) (?:rate )?limits?\\b|\\bpriority processing\\b");

    private static final List<NamedPattern> CAPACITY = List.of(
            NamedPattern.of("model-capacity",
                    "\\b(?:at|over|out of) capacity\\b|capacity[ _](?:exceeded|exhausted)|no capacity available"
                            + "|insufficient capacity|\\bqueue_exceeded\\b|queue position|no (?:more )?(?:data ?centers"
                            + "|servers|instances|workers) (?:available|to forward)"));

    private static final List<NamedPattern> USAGE_LIMIT = List.of(
            NamedPattern.of("usage-limit", "(?<!not your )(?<!not a )(?<!not the )(?<!not )usage[ _]limit"),
            NamedPattern.of("quota-exceeded",
                    "quota (?:exceeded|exhausted|reached)|exceeded (?:your |the )?(?:current |daily |monthly |weekly )?"
                            + "quota|out of (?:[\\w-]+ ){0,3}quota|quota (?:has been|was) (?:exceeded|exhausted|reached)"
                            + "|quota will be (?:replenished|reset|refilled)"),
            NamedPattern.of("periodic-limit",
                    "\\b(?:hourly|daily|weekly|monthly|5-hour|five-hour|session) (?:[\\w.-]+ ){0,2}(?:limit|quota|cap"
                            + "|allocation|allowance)\\b"
                            + "|\\bper-(?:day|week|month)\\b|\\b(?:requests?|tokens?|messages?) per (?:day|week|month)\\b"
                            + "|(?<![A-Za-z])[RT]PD(?![A-Za-z])"),
            NamedPattern.of("limit-reached",
                    "\\b(?:you(?:'ve| have)?|your (?:org(?:anization)?|account|team|workspace)(?: has)?) (?:hit|reached"
                            + "|exceeded|used up|run out of) (?:your |the |its |their )?(?:[\\w.-]+ ){0,3}?(?:limit|cap"
                            + "|allowance|allocation|quota)s?\\b(?<!rate limit)(?<!rate limits)"
                            + "|\\bout of (?:\\w+ )?(?:messages|requests|prompts)\\b"
                            + "|\\b(?:used|exhausted|spent) (?:all|up)? ?(?:of )?(?:your |the |this |today['’]s |this "
                            + "(?:week|month)['’]s )?(?:free |daily |weekly |monthly |included )?(?:usage|quota|"
                            + "allowance|capacity|requests|messages)\\b|\\b(?:quota|usage|allowance) will reset\\b"),
            NamedPattern.of("usage-limit-chinese", "使用上限|用量上限|额度(?:已)?(?:用尽|用完|耗尽)|配额(?:已)?(?:用尽|用完|耗尽|超限)"
                    + "|已达(?:到)?(?:[^。]{0,20})(?:上限|限额)"));

    /** Any limit that was exceeded or reached: a usage limit when its window is an hour or more. */
    private static final NamedPattern LIMIT_EXCEEDED = NamedPattern.of("limit-exceeded-per-period",
            "\\b(?:limit|quota|cap)s?\\b[^.]{0,60}?\\b(?:exceeded|reached|hit|exhausted)\\b"
                    + "|\\b(?:exceeded|reached|hit|exhausted)\\b[^.]{0,40}?\\b(?:limit|quota|cap)s?\\b");

    /** A word for a limit: with a wall-clock reset beside it, the text speaks of a usage limit. */
    private static final NamedPattern LIMIT_WORD = NamedPattern.of("limit-word",
            "\\b(?:limit|cap|quota|allowance|allocation)s?\\b|\\busage\\b");

    private static final NamedPattern PER_MINUTE =
            NamedPattern.of("per-minute", "per[ _-]?min(?:ute)?(?:\\b|_)|PerMinute|(?<![A-Za-z])[RT]PM(?![A-Za-z])"
                    + "|per[ _-]?second(?:\\b|_)|\\bRPS\\b");
    /** A window of an hour or more: such a limit does not end in seconds. */
    private static final NamedPattern LONGER_PERIOD = NamedPattern.of("longer-period",
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
    private static final NamedPattern LONGER_WAIT = NamedPattern.of("longer-wait",
            "(?:replenished|reset|refilled) in \\d+\\.\\d{1,2}:\\d{2}:\\d{2}"
                    + "|\\b(?:try again|retry|come back|resets?|reset) (?:in|after) (?:about |~)?\\d+(?:\\.\\d+)?\\s*"
                    + "(?:days?|d|hours?|hrs?|h)(?![a-z])");
    /** A quota that Google reports as violated and whose id names an hour or more: it is spent, whatever else. */
    private static final NamedPattern VIOLATED_LONGER_QUOTA = NamedPattern.of("violated-longer-quota",
            "\\bquota: [^)]*Per(?:Hour|Day|Week|Month)");
    /** The words of a sentence that says which limit was exceeded. */
    private static final NamedPattern EXCEEDED = NamedPattern.of("exceeded",
            "exceed|reached|\\bhit\\b|too many|used (?:all|up)|exhausted|limited to|run out|ran out");
    /** Sentences end at a period, semicolon, mark or line break; a parenthesis after the period belongs to it. */
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.;!?。])\\s+(?!\\()|\\n");
    /** Words that make a sentence speak of a limit: a window named elsewhere ("requests per day") is not one. */
    private static final NamedPattern LIMIT_CONTEXT = NamedPattern.of("limit-context",
            "limit|quota|\\bcap(?:s|ped)?\\b|allowance|allocation|exceed|reached|too many|\\brate\\b|throttl|\\bused\\b"
                    + "|\\bmax(?:imum)?\\b"
                    + "|usage|上限|限额|配额|额度");
    private static final NamedPattern PLAN = NamedPattern.of("plan",
            "plan limit|upgrade (?:your plan|to )|subscription");

    private AccountLimitRules() {
    }

    /** The name of the billing or credit-exhaustion wording in {@code text}, if any. */
    static Optional<String> billing(String text) {
        return NamedPattern.firstIn(BILLING, text);
    }

    /** The name of the wording of a missing entitlement in {@code text}, if any. */
    static Optional<String> entitlement(String text) {
        Optional<String> match = NamedPattern.firstIn(ENTITLEMENT, text);
        if (match.isEmpty() || match.get().equals(ZERO_QUOTA)) {
            return match;
        }
        // A requirement beside a per-minute window or a "higher limits" upsell is an upsell on an ordinary limit.
        return HIGHER_LIMITS_UPSELL.foundIn(text) || PER_MINUTE.foundIn(text) ? Optional.empty() : match;
    }

    /** The name of the model-capacity wording in {@code text}, if any. */
    static Optional<String> capacity(String text) {
        return NamedPattern.firstIn(CAPACITY, text);
    }

    /**
     * The name of the usage- or quota-limit wording in {@code text}, if any: a usage or quota limit, a periodic or
     * per-day limit, a limit the account reached, or any limit that resets at a time of day or on a date.
     */
    static Optional<String> usageLimit(String text) {
        Optional<String> named = NamedPattern.firstIn(USAGE_LIMIT, text);
        if (named.isPresent()) {
            return named;
        }
        if (LIMIT_EXCEEDED.foundIn(text) && outlastsMinutes(text)) {
            return Optional.of(LIMIT_EXCEEDED.name());
        }
        return LIMIT_WORD.foundIn(text) && WallClockResets.mentioned(text) ? Optional.of("limit-resets-at")
                : Optional.empty();
    }

    /**
     * Whether the limit named in {@code text} lasts an hour or more: a per-day or longer window, a violated Google
     * quota whose id names one, or a reset at a time of day or on a date. Such a limit is a usage limit even when the
     * provider calls it a rate limit: retrying it after a second only earns another refusal. When the text names a
     * per-minute window too, the sentence that says what was exceeded decides, and a tie goes to the minute.
     */
    static boolean outlastsMinutes(String text) {
        if (text == null || VIOLATED_LONGER_QUOTA.foundIn(text) || LONGER_WAIT.foundIn(text)
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
        if (PER_MINUTE.foundIn(text)) {
            return UsageLimitReason.PER_MINUTE;
        }
        return PLAN.foundIn(text) ? UsageLimitReason.QUOTA : UsageLimitReason.UNKNOWN;
    }
}
