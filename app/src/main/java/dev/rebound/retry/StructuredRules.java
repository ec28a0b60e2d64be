package dev.rebound.retry;

import dev.rebound.event.ErrorKind;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The first layer of the classifier: the structured facts a provider gave — {@code x-should-retry}, the HTTP status (or
 * the numeric code of an error inside a stream), and the provider's error type and code.
 *
 * <p>Order, first match wins:
 * <ol>
 *   <li>billing by its facts (402, {@code insufficient_quota}, {@code billing_error}...), even on a 400 and even with
 *       {@code x-should-retry: false}: it never repeats the request on the same credential, it only switches credential
 *       or model (§5), and is terminal when there is nothing to switch to; unless the text says when the allowance
 *       refills ("Resets at 10:00 UTC") and no {@code x-should-retry: false} forbids waiting: then a quota;</li>
 *   <li>a missing entitlement (a plan or key without the feature or model) on a 429, a typed rate limit or with no
 *       status: a usage limit that never waits, and blocks the key for nobody (its upsell may mention credits);</li>
 *   <li>billing by its wording (credit balance, spend limits), under the same terms as its facts;</li>
 *   <li>{@code x-should-retry: false}: terminal, even on a 429 or 5xx;</li>
 *   <li>a request larger than a per-minute token limit on its own: terminal, with advice, whatever the status;</li>
 *   <li>a structured capacity type or code ({@code capacity_exceeded}, {@code insufficient_system_resource}...);</li>
 *   <li>a model server that cannot load the model, on a 5xx or with no status: terminal, with advice;</li>
 *   <li>a 5xx that is an unsupported request ({@code Unsupported param: tools}): terminal;</li>
 *   <li>model capacity by its status (Groq's 498) or wording, even on a 400;</li>
 *   <li>a 403 that reports a usage limit of a day or longer and no access rule (sign-up, suspension...): a quota;</li>
 *   <li>a client-error status other than 402/408/409/429: terminal, whatever the text says;</li>
 *   <li>the provider's type or code: rate limit (a usage limit when its window is a day or longer),
 *       {@code RESOURCE_EXHAUSTED} (a usage limit when worded as a quota or per day), usage limit, transient; a terminal
 *       type only when there is no status;</li>
 *   <li>the status: 429 is a usage limit when worded so or when its window is a day or longer, else a rate limit;
 *       408, 409 and 5xx are transient.</li>
 * </ol>
 * The billing and capacity wording is not read when the type or code says rate limit: a rate limit worded like billing
 * stays a rate limit. Nothing else is decided here: the caller moves on to the failure kind and the text.
 */
final class StructuredRules {

    /** What a provider's error type or code says. */
    private enum TypeClass {
        BILLING,
        CAPACITY,
        RATE_LIMIT,
        RESOURCE_EXHAUSTED,
        USAGE_LIMIT,
        TRANSIENT,
        TERMINAL
    }

    private static final Map<String, TypeClass> TYPES = Map.ofEntries(
            Map.entry("insufficient_quota", TypeClass.BILLING),
            Map.entry("billing_error", TypeClass.BILLING),
            Map.entry("payment_required", TypeClass.BILLING),
            Map.entry("billing_not_active", TypeClass.BILLING),
            Map.entry("exceeded_current_quota_error", TypeClass.BILLING),
            Map.entry("insufficient_user_quota", TypeClass.BILLING),
            Map.entry("insufficient_credits", TypeClass.BILLING),
            Map.entry("capacity_exceeded", TypeClass.CAPACITY),
            Map.entry("service_tier_capacity_exceeded", TypeClass.CAPACITY),
            Map.entry("model_capacity_exhausted", TypeClass.CAPACITY),
            Map.entry("insufficient_system_resource", TypeClass.CAPACITY),
            Map.entry("rate_limit_error", TypeClass.RATE_LIMIT),
            Map.entry("rate_limit_exceeded", TypeClass.RATE_LIMIT),
            Map.entry("rate_limited", TypeClass.RATE_LIMIT),
            Map.entry("rate_limit", TypeClass.RATE_LIMIT),
            Map.entry("throttling_error", TypeClass.RATE_LIMIT),
            Map.entry("throttlingexception", TypeClass.RATE_LIMIT),
            Map.entry("resource_exhausted", TypeClass.RESOURCE_EXHAUSTED),
            Map.entry("usage_limit_reached", TypeClass.USAGE_LIMIT),
            Map.entry("queue_exceeded", TypeClass.CAPACITY),
            Map.entry("overloaded_error", TypeClass.TRANSIENT),
            Map.entry("api_error", TypeClass.TRANSIENT),
            Map.entry("server_error", TypeClass.TRANSIENT),
            Map.entry("internal_server_error", TypeClass.TRANSIENT),
            Map.entry("service_unavailable", TypeClass.TRANSIENT),
            Map.entry("timeout_error", TypeClass.TRANSIENT),
            Map.entry("unavailable", TypeClass.TRANSIENT),
            Map.entry("internal", TypeClass.TRANSIENT),
            Map.entry("deadline_exceeded", TypeClass.TRANSIENT),
            Map.entry("serviceunavailableexception", TypeClass.TRANSIENT),
            Map.entry("modelnotreadyexception", TypeClass.TRANSIENT),
            Map.entry("modeltimeoutexception", TypeClass.TRANSIENT),
            Map.entry("internalserverexception", TypeClass.TRANSIENT),
            Map.entry("authentication_error", TypeClass.TERMINAL),
            Map.entry("permission_error", TypeClass.TERMINAL),
            Map.entry("not_found_error", TypeClass.TERMINAL),
            Map.entry("invalid_request_error", TypeClass.TERMINAL),
            Map.entry("request_too_large", TypeClass.TERMINAL),
            Map.entry("invalid_api_key", TypeClass.TERMINAL),
            Map.entry("model_not_found", TypeClass.TERMINAL),
            Map.entry("content_filter", TypeClass.TERMINAL),
            Map.entry("invalid_prompt", TypeClass.TERMINAL),
            Map.entry("invalid_argument", TypeClass.TERMINAL),
            Map.entry("failed_precondition", TypeClass.TERMINAL),
            Map.entry("permission_denied", TypeClass.TERMINAL),
            Map.entry("unauthenticated", TypeClass.TERMINAL),
            Map.entry("not_found", TypeClass.TERMINAL),
            Map.entry("validationexception", TypeClass.TERMINAL),
            Map.entry("accessdeniedexception", TypeClass.TERMINAL));

    private static final int TOO_MANY_REQUESTS = 429;
    private static final int PAYMENT_REQUIRED = 402;
    /** Groq's "Flex Tier Capacity Exceeded". */
    private static final int FLEX_CAPACITY_EXCEEDED = 498;

    private static final int FORBIDDEN = 403;
    /** A 403 about sign-up, authentication or a suspension is a refusal of access, whatever period it names. */
    private static final NamedPattern ACCESS_RULES = NamedPattern.of(
            "access-rules", "unauthenticated|sign ?up|log ?in|authenticat|suspend|violation|banned|api key");

    private StructuredRules() {}

    /** The verdict the structured facts support, or empty when they say nothing decisive. */
    static Optional<Classification> classify(ProviderFailure failure, String text) {
        if (failure == null) {
            return Optional.empty();
        }
        Facts facts = Facts.of(failure);
        return billingFacts(facts, failure, text)
                .or(() -> entitlement(facts, text))
                .or(() -> billingWording(facts, text))
                .or(() -> shouldRetryFalse(failure))
                .or(() -> RequestSizeRules.match(text))
                .or(() -> typedCapacity(facts))
                .or(() -> modelCannotLoad(facts, text))
                .or(() -> unsupportedRequest(facts, text))
                .or(() -> capacity(facts, text))
                .or(() -> periodicLimitOnForbidden(facts, text))
                .or(() -> terminalStatus(facts))
                .or(() -> byType(facts, text))
                .or(() -> byStatus(facts, text));
    }

    /**
     * Billing by its facts. A "billing" failure whose text says when the allowance comes back ("Free quota used (30
     * requests / 5h). Resets at 10:00 UTC", on a 402 typed {@code insufficient_quota}) is a quota that refills, not
     * credit that ran out: a {@code QUOTA} usage limit, whose reset is the wait.
     */
    private static Optional<Classification> billingFacts(Facts facts, ProviderFailure failure, String text) {
        String rule = facts.hasStatus(PAYMENT_REQUIRED)
                ? facts.statusRule()
                : facts.is(TypeClass.BILLING) ? facts.typed().rule() : null;
        if (rule == null) {
            return Optional.empty();
        }
        boolean refills = LimitPeriods.outlastsMinutes(text)
                && AccountLimitRules.usageLimit(text).isPresent()
                && shouldRetryFalse(failure).isEmpty();
        return Optional.of(
                refills
                        ? Classification.usageLimit(UsageLimitReason.QUOTA, rule + ":refills")
                        : Classification.usageLimit(UsageLimitReason.BILLING, rule));
    }

    /**
     * Billing by its wording. Not for a typed rate limit ({@code rate_limit_error}: its text may mention billing plans);
     * but Google's {@code RESOURCE_EXHAUSTED} covers spent prepaid credit too ("Your prepayment credits are depleted"),
     * which no wait brings back.
     */
    private static Optional<Classification> billingWording(Facts facts, String text) {
        if (facts.is(TypeClass.RATE_LIMIT)) {
            return Optional.empty();
        }
        return AccountLimitRules.billing(text)
                .map(name -> Classification.usageLimit(UsageLimitReason.BILLING, "text:" + name));
    }

    private static Optional<Classification> shouldRetryFalse(ProviderFailure failure) {
        String shouldRetry = failure.header("x-should-retry");
        return shouldRetry != null && shouldRetry.strip().equalsIgnoreCase("false")
                ? Optional.of(Classification.terminal("x-should-retry:false"))
                : Optional.empty();
    }

    private static Optional<Classification> entitlement(Facts facts, String text) {
        boolean limitLike = facts.status() == null || facts.hasStatus(TOO_MANY_REQUESTS) || facts.typedRateLimit();
        return limitLike
                ? AccountLimitRules.entitlement(text)
                        .map(name -> Classification.usageLimit(UsageLimitReason.ENTITLEMENT, "text:" + name))
                : Optional.empty();
    }

    private static Optional<Classification> modelCannotLoad(Facts facts, String text) {
        return facts.status() == null || facts.status() >= 500 ? LocalModelRules.match(text) : Optional.empty();
    }

    /** A structured capacity type or code: it wins over what the text says about memory or loading. */
    private static Optional<Classification> typedCapacity(Facts facts) {
        return facts.is(TypeClass.CAPACITY)
                ? Optional.of(Classification.usageLimit(
                        UsageLimitReason.MODEL_CAPACITY, facts.typed().rule()))
                : Optional.empty();
    }

    private static Optional<Classification> capacity(Facts facts, String text) {
        if (facts.hasStatus(FLEX_CAPACITY_EXCEEDED)) {
            return Optional.of(Classification.usageLimit(UsageLimitReason.MODEL_CAPACITY, facts.statusRule()));
        }
        if (facts.is(TypeClass.RATE_LIMIT) || (facts.status() != null && isTerminalStatus(facts.status()))) {
            // A bad request stays terminal whatever its text says about capacity (§2); a typed rate limit stays one.
            return Optional.empty();
        }
        return AccountLimitRules.capacity(text)
                .map(name -> Classification.usageLimit(UsageLimitReason.MODEL_CAPACITY, "text:" + name));
    }

    /**
     * A 403 that reports a usage limit of a day or longer ("You've reached your weekly usage limit"): some providers
     * send a plan's cap as a refusal of access. It is a usage limit, not a permission failure: another key may serve.
     */
    private static Optional<Classification> periodicLimitOnForbidden(Facts facts, String text) {
        if (!facts.hasStatus(FORBIDDEN) || !LimitPeriods.outlastsMinutes(text) || ACCESS_RULES.foundIn(text)) {
            return Optional.empty();
        }
        return AccountLimitRules.usageLimit(text)
                .map(name -> Classification.usageLimit(UsageLimitReason.QUOTA, facts.statusRule() + ":" + name));
    }

    private static Optional<Classification> terminalStatus(Facts facts) {
        return facts.status() != null && isTerminalStatus(facts.status())
                ? Optional.of(Classification.terminal(facts.statusRule()))
                : Optional.empty();
    }

    private static Optional<Classification> byType(Facts facts, String text) {
        Typed typed = facts.typed();
        if (typed == null) {
            return Optional.empty();
        }
        return switch (typed.typeClass()) {
            case RATE_LIMIT -> Optional.of(TextRules.rateLimit(text, typed.rule()));
            case RESOURCE_EXHAUSTED ->
                Optional.of(AccountLimitRules.usageLimit(text)
                        .map(name -> Classification.usageLimit(LimitPeriods.period(text), typed.rule() + ":" + name))
                        .orElseGet(() -> TextRules.rateLimit(text, typed.rule())));
            case USAGE_LIMIT -> Optional.of(Classification.usageLimit(planPeriod(text), typed.rule()));
            case TRANSIENT -> Optional.of(Classification.retry(ErrorKind.TRANSIENT, typed.rule()));
            case TERMINAL ->
                facts.status() == null ? Optional.of(Classification.terminal(typed.rule())) : Optional.empty();
            case BILLING, CAPACITY -> Optional.empty();
        };
    }

    /** A typed usage limit ({@code usage_limit_reached}) is a plan's: a quota unless its text names a minute. */
    private static UsageLimitReason planPeriod(String text) {
        UsageLimitReason period = LimitPeriods.period(text);
        return period == UsageLimitReason.UNKNOWN ? UsageLimitReason.QUOTA : period;
    }

    /** A 5xx that is a request the server cannot handle ({@code Unsupported param: tools}): terminal. */
    private static Optional<Classification> unsupportedRequest(Facts facts, String text) {
        return facts.status() != null && facts.status() >= 500 ? TextRules.unsupportedRequest(text) : Optional.empty();
    }

    private static Optional<Classification> byStatus(Facts facts, String text) {
        Integer status = facts.status();
        if (status == null) {
            return Optional.empty();
        }
        if (status == TOO_MANY_REQUESTS) {
            return Optional.of(AccountLimitRules.usageLimit(text)
                    .map(name -> Classification.usageLimit(LimitPeriods.period(text), facts.statusRule() + ":" + name))
                    .orElseGet(() -> TextRules.rateLimit(text, facts.statusRule())));
        }
        if (status == 408 || status == 409 || (status >= 500 && status <= 599 && status != 501 && status != 505)) {
            return Optional.of(Classification.retry(ErrorKind.TRANSIENT, facts.statusRule()));
        }
        return Optional.empty();
    }

    /**
     * A failure that retrying cannot fix: every 4xx but 402 (billing), 408, 409, 429 and Groq's 498; and 501 (Not
     * Implemented) and 505 (HTTP Version Not Supported), which no wait changes.
     */
    private static boolean isTerminalStatus(int status) {
        if (status == 501 || status == 505) {
            return true;
        }
        return status >= 400
                && status <= 499
                && status != PAYMENT_REQUIRED
                && status != 408
                && status != 409
                && status != TOO_MANY_REQUESTS
                && status != FLEX_CAPACITY_EXCEEDED;
    }

    /**
     * The HTTP status, or for an error object inside a stream its numeric code when that is an HTTP status
     * ({@code "429"}, {@code "502"}); null otherwise (Mistral's {@code "1300"} is not a status).
     */
    private static Integer effectiveStatus(ProviderFailure failure) {
        if (failure.httpStatus() != null) {
            return failure.httpStatus();
        }
        if (failure.kind() != FailureKind.STREAM_ERROR || failure.errorCode() == null) {
            return null;
        }
        String code = failure.errorCode().strip();
        if (code.length() != 3 || !code.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        int value = Integer.parseInt(code);
        return value >= 100 && value <= 599 ? value : null;
    }

    /** The known error code, else the known error type (the code is the more specific of the two), or null. */
    private static Typed knownType(ProviderFailure failure) {
        Typed byCode = lookUp("code", failure.errorCode());
        return byCode != null ? byCode : lookUp("type", failure.errorType());
    }

    private static Typed lookUp(String field, String value) {
        if (value == null) {
            return null;
        }
        String stripped = value.strip();
        TypeClass typeClass = TYPES.get(stripped.toLowerCase(Locale.ROOT));
        return typeClass == null ? null : new Typed(typeClass, field + ":" + stripped);
    }

    /** A known type or code and the rule naming it, e.g. {@code type:overloaded_error}. */
    private record Typed(TypeClass typeClass, String rule) {}

    /**
     * The facts the steps read.
     *
     * @param status the HTTP status or a stream error's numeric code, or null
     * @param statusRule {@code status:N} or {@code stream-code:N}, or null
     * @param typed the known type or code, or null
     */
    private record Facts(Integer status, String statusRule, Typed typed) {
        static Facts of(ProviderFailure failure) {
            Integer status = effectiveStatus(failure);
            String statusRule =
                    status == null ? null : (failure.httpStatus() != null ? "status:" : "stream-code:") + status;
            return new Facts(status, statusRule, knownType(failure));
        }

        boolean hasStatus(int value) {
            return status != null && status == value;
        }

        boolean is(TypeClass typeClass) {
            return typed != null && typed.typeClass() == typeClass;
        }

        boolean typedRateLimit() {
            return is(TypeClass.RATE_LIMIT) || is(TypeClass.RESOURCE_EXHAUSTED);
        }
    }
}
