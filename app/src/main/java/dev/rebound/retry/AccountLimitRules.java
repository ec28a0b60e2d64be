package dev.rebound.retry;

import java.util.List;
import java.util.Optional;

/**
 * Wording of account and plan limits (§5 of the retry policy), shared by the structured and the text layer: billing or
 * credit exhaustion, a missing entitlement, a model at capacity, and usage or quota limits. The window of a limit,
 * which decides the {@link UsageLimitReason} of a usage limit, is read by {@link LimitPeriods}.
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
            NamedPattern.of(
                    "requires-more-credits",
                    "requires more credits|out of credits|not enough credits"
                            + "|credits? (?:have been |has been |are |is )?(?:exhausted|depleted|used up)"
                            + "|(?:used|exhausted|run out of|ran out of) (?:all )?(?:(?:your|its|their|the|available) )*credits"
                            + "|purchase more credits|positive (?:credit )?balance"),
            NamedPattern.of("payment-required", "payment required"),
            NamedPattern.of(
                    "spend-limit",
                    "reached your specified (?:workspace )?API usage limits?"
                            + "|(?:spend(?:ing)?|budget) (?:limit|cap) (?:has been |was )?(?:reached|exceeded|hit)"
                            + "|(?:reach(?:ed|ing)?|exceed(?:ed|ing)?|hit) (?:(?:your|its|their|the|a|monthly|team|key) )*"
                            + "spend(?:ing)? (?:limit|cap)|budget has been exceeded|exceeded (?:your |the )?(?:monthly |team "
                            + "|key )?budget|failure to pay|(?:unpaid|past|overdue) invoices?"),
            NamedPattern.of("billing-hard-limit", "billing hard limit"),
            NamedPattern.of(
                    "billing-code",
                    "\\b(?:insufficient_quota|billing_not_active|insufficient_user_quota"
                            + "|exceeded_current_quota_error)\\b"),
            NamedPattern.of(
                    "free-tier-exhausted",
                    "free (?:tier|trial|credits?|allowance)\\b[^.]{0,40}?(?:has been |have "
                            + "been |is |are )?(?:exhausted|used up|depleted|expired|ended)"),
            NamedPattern.of("balance-chinese", "余额不足|欠费|账户余额|额度不足"),
            NamedPattern.of(
                    "credits-exceeded",
                    "\\b(?:exceeded|used|exhausted|spent) (?:all (?:of )?)?(?:your |the |its )?"
                            + "(?:monthly |daily |free |included |available |prepaid |trial )*credits?\\b"
                            + "|quota\\b[^.]{0,60}?\\bis not enough|not enough quota"));

    /**
     * A plan or key that lacks what the request needs. Phrased as a requirement or an access rule — never as a limit
     * that was reached — so upsells on ordinary limits do not match.
     */
    /** A free-tier quota of zero for a model: the plan has no allowance for it at all. */
    private static final String ZERO_QUOTA = "entitlement-zero-quota";

    private static final List<NamedPattern> ENTITLEMENT = List.of(
            NamedPattern.of(
                    "entitlement-required",
                    "\\b(?:extra usage|a paid (?:plan|tier|account|subscription)|an? (?:upgraded|higher|pro|plus"
                            + "|premium|enterprise|team|paid) (?:plan|tier|account|subscription)|(?:a |an )?"
                            + "(?:subscription|billing (?:setup|account)|paid credits)) (?:is|are) required\\b"
                            + "|\\brequires? (?:a |an )?(?:paid|upgraded|higher|pro|plus|premium|enterprise|team|max)"
                            + "\\b[\\w -]{0,30}?\\b(?:plan|tier|account|subscription|access)\\b"
                            + "|\\brequire (?:a |an )?[\\w-]+ (?:plan|subscription|tier)\\b|\\bupgrade required\\b"
                            + "|\\benable extra usage\\b"),
            NamedPattern.of(
                    "entitlement-not-available",
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
            NamedPattern.of(
                    "entitlement-no-access",
                    "\\b(?:does not|doesn't|do not|don't) have access to (?:this|the|that)?\\s*(?:model|feature|"
                            + "beta|tier|long context)|\\bnot (?:entitled|eligible) (?:to use|for this model|for this "
                            + "feature|to access)\\b"),
            NamedPattern.of(
                    ZERO_QUOTA,
                    "(?:quota|free[_ ]tier)\\b[^\\n]{0,200}?(?<!remaining )(?<!remaining: )\\blimit:? 0(?!\\d|[.,]\\d)"));
    /**
     * An upsell on an ordinary limit ("a paid plan is required for higher limits", "Higher limits are only available
     * for paid accounts"): the limit ends by itself, so it is no entitlement gate.
     */
    private static final NamedPattern HIGHER_LIMITS_UPSELL = NamedPattern.of(
            "higher-limits-upsell",
            "\\b(?:higher|more|increased?|raise[ds]?) (?:rate )?limits?\\b|\\bpriority processing\\b");

    private static final List<NamedPattern> CAPACITY = List.of(NamedPattern.of(
            "model-capacity",
            "\\b(?:at|over|out of) capacity\\b|capacity[ _](?:exceeded|exhausted)|no capacity available"
                    + "|insufficient capacity|\\bqueue_exceeded\\b|queue position|no (?:more )?(?:data ?centers"
                    + "|servers|instances|workers) (?:available|to forward)"));

    private static final List<NamedPattern> USAGE_LIMIT = List.of(
            NamedPattern.of("usage-limit", "(?<!not your )(?<!not a )(?<!not the )(?<!not )usage[ _]limit"),
            NamedPattern.of(
                    "quota-exceeded",
                    "quota (?:exceeded|exhausted|reached)|exceeded (?:your |the )?(?:current |daily |monthly |weekly )?"
                            + "quota|out of (?:[\\w-]+ ){0,3}quota|quota (?:has been|was) (?:exceeded|exhausted|reached)"
                            + "|quota will be (?:replenished|reset|refilled)"),
            NamedPattern.of(
                    "periodic-limit",
                    "\\b(?:hourly|daily|weekly|monthly|5-hour|five-hour|session) (?:[\\w.-]+ ){0,2}(?:limit|quota|cap"
                            + "|allocation|allowance)\\b"
                            + "|\\bper-(?:day|week|month)\\b|\\b(?:requests?|tokens?|messages?) per (?:day|week|month)\\b"
                            + "|(?<![A-Za-z])[RT]PD(?![A-Za-z])"),
            NamedPattern.of(
                    "limit-reached",
                    "\\b(?:you(?:'ve| have)?|your (?:org(?:anization)?|account|team|workspace)(?: has)?) (?:hit|reached"
                            + "|exceeded|used up|run out of) (?:your |the |its |their )?(?:[\\w.-]+ ){0,3}?(?:limit|cap"
                            + "|allowance|allocation|quota)s?\\b(?<!rate limit)(?<!rate limits)"
                            + "|\\bout of (?:\\w+ )?(?:messages|requests|prompts)\\b"
                            + "|\\b(?:used|exhausted|spent) (?:all|up)? ?(?:of )?(?:your |the |this |today['’]s |this "
                            + "(?:week|month)['’]s )?(?:free |daily |weekly |monthly |included )?(?:usage|quota|"
                            + "allowance|capacity|requests|messages)\\b|\\b(?:quota|usage|allowance) will reset\\b"),
            NamedPattern.of(
                    "usage-limit-chinese",
                    "使用上限|用量上限|额度(?:已)?(?:用尽|用完|耗尽)|配额(?:已)?(?:用尽|用完|耗尽|超限)" + "|已达(?:到)?(?:[^。]{0,20})(?:上限|限额)"));

    /** Any limit that was exceeded or reached: a usage limit when its window is an hour or more. */
    private static final NamedPattern LIMIT_EXCEEDED = NamedPattern.of(
            "limit-exceeded-per-period",
            "\\b(?:limit|quota|cap)s?\\b[^.]{0,60}?\\b(?:exceeded|reached|hit|exhausted)\\b"
                    + "|\\b(?:exceeded|reached|hit|exhausted)\\b[^.]{0,40}?\\b(?:limit|quota|cap)s?\\b");

    /** A word for a limit: with a wall-clock reset beside it, the text speaks of a usage limit. */
    private static final NamedPattern LIMIT_WORD =
            NamedPattern.of("limit-word", "\\b(?:limit|cap|quota|allowance|allocation)s?\\b|\\busage\\b");

    private AccountLimitRules() {}

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
        return HIGHER_LIMITS_UPSELL.foundIn(text) || LimitPeriods.namesAMinute(text) ? Optional.empty() : match;
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
        if (LIMIT_EXCEEDED.foundIn(text) && LimitPeriods.outlastsMinutes(text)) {
            return Optional.of(LIMIT_EXCEEDED.name());
        }
        return LIMIT_WORD.foundIn(text) && WallClockResets.mentioned(text)
                ? Optional.of("limit-resets-at")
                : Optional.empty();
    }
}
