package dev.rebound.retry;

import java.util.List;
import java.util.Optional;

/**
 * Wording of account and plan limits (§5 of the retry policy), shared by the structured and the text layer: billing or
 * credit exhaustion, a model at capacity, and usage or quota limits, with the period that decides their
 * {@link UsageLimitReason}.
 *
 * <p>The patterns are deliberately narrower than "anything mentioning billing or quota": Gemini's per-minute limit says
 * "please check your plan and billing details", Azure's rate limit links to {@code aka.ms/oai/quotaincrease} and Groq's
 * to {@code console.groq.com/settings/billing}; none of these is a billing failure.
 */
final class AccountLimitRules {
    private static final List<NamedPattern> BILLING = List.of(
            NamedPattern.of("credit-balance-too-low", "credit balance is too low"),
            NamedPattern.of("insufficient-credits", "insufficient[ _](?:credits?|balance|funds)"),
            NamedPattern.of("requires-more-credits", "requires more credits|out of credits|not enough credits"),
            NamedPattern.of("payment-required", "payment required"),
            NamedPattern.of("spend-limit", "reached your specified (?:workspace )?API usage limits?"),
            NamedPattern.of("billing-hard-limit", "billing hard limit"));

    private static final List<NamedPattern> CAPACITY = List.of(
            NamedPattern.of("model-capacity",
                    "\\b(?:at|over|out of) capacity\\b|capacity[ _](?:exceeded|exhausted)|no capacity available"));

    private static final List<NamedPattern> USAGE_LIMIT = List.of(
            NamedPattern.of("usage-limit", "usage[ _]limit"),
            NamedPattern.of("quota-exceeded",
                    "quota exceeded|exceeded (?:your |the )?(?:current )?quota|out of quota"),
            NamedPattern.of("periodic-limit",
                    "\\b(?:hourly|daily|weekly|monthly) (?:\\w+ )?limit|\\bper-(?:day|week|month)\\b"));

    private static final NamedPattern PER_MINUTE =
            NamedPattern.of("per-minute", "per[ -]?min(?:ute)?\\b|PerMinute|\\b[RT]PM\\b");
    private static final NamedPattern LONGER_PERIOD = NamedPattern.of("longer-period",
            "per[ -]?(?:hour|day|week|month)\\b|Per(?:Hour|Day|Week|Month)|\\b(?:hourly|daily|weekly|monthly)\\b"
                    + "|\\b[RT]PD\\b|plan limit|upgrade (?:your plan|to )|subscription");

    private AccountLimitRules() {
    }

    /** The name of the billing or credit-exhaustion wording in {@code text}, if any. */
    static Optional<String> billing(String text) {
        return NamedPattern.firstIn(BILLING, text);
    }

    /** The name of the model-capacity wording in {@code text}, if any. */
    static Optional<String> capacity(String text) {
        return NamedPattern.firstIn(CAPACITY, text);
    }

    /** The name of the usage- or quota-limit wording in {@code text}, if any. */
    static Optional<String> usageLimit(String text) {
        return NamedPattern.firstIn(USAGE_LIMIT, text);
    }

    /**
     * The period of a usage limit: {@link UsageLimitReason#PER_MINUTE} when the text names a per-minute budget,
     * {@link UsageLimitReason#QUOTA} for an hourly, daily, weekly, monthly or plan limit, else
     * {@link UsageLimitReason#UNKNOWN}.
     */
    static UsageLimitReason period(String text) {
        if (PER_MINUTE.foundIn(text)) {
            return UsageLimitReason.PER_MINUTE;
        }
        return LONGER_PERIOD.foundIn(text) ? UsageLimitReason.QUOTA : UsageLimitReason.UNKNOWN;
    }
}
