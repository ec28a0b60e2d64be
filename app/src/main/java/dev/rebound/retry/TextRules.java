package dev.rebound.retry;

import dev.rebound.event.ErrorKind;
import java.util.List;
import java.util.Optional;

/**
 * The second layer of the classifier: the error text, for failures the structured facts do not decide (transport
 * exceptions, errors inside streams, errors wrapped by proxies and plugins). Numbers match only as whole tokens.
 *
 * <p>Order, first match wins: a TLS certificate failure (terminal: retrying cannot fix a certificate), a request larger
 * than a per-minute limit (terminal), a model a server cannot load (terminal), a missing entitlement, billing, model
 * capacity, a client error written into the text (a 4xx status, an SDK's client-error class, an invalid request:
 * terminal), usage limit, rate limit (a usage limit when its window is a day or longer), access, credential,
 * unknown-model, unsupported-request and content-policy wording (terminal, even inside a "connection error"),
 * transient wording and transport failures ({@link TransportWording}), a standalone 429, a transient status number,
 * else terminal {@code unrecognised}.
 */
final class TextRules {
    private static final NamedPattern TLS_CERTIFICATE = NamedPattern.of(
            "tls-certificate",
            "PKIX path|certification path|CertificateException|certificate (?:has expired|is not trusted|verify failed"
                    + "|signed by unknown authority|is not valid|is valid for)|CERTIFICATE_VERIFY_FAILED"
                    + "|SSLCertVerificationError|ClientConnectorCertificateError|self[- ]signed certificate"
                    + "|SELF_SIGNED_CERT|unable to (?:get local issuer|verify the first) certificate"
                    + "|failed to verify certificate|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_HAS_EXPIRED"
                    + "|ERR_TLS_CERT_ALTNAME_INVALID|does not match certificate's altnames"
                    + "|SSLPeerUnverifiedException|Hostname \\S+ not verified|remote certificate|certificate is invalid"
                    + "|errors in the certificate chain|RemoteCertificate\\w+");

    /** A request the server cannot handle: it answers it the same way every time. */
    private static final NamedPattern UNSUPPORTED = NamedPattern.of(
            "unsupported-request",
            "unsupported (?:param(?:eter)?|argument|field|feature|value)s?\\b|requires (?:the )?--[\\w-]+ flag"
                    + "|(?:param(?:eter)?|argument|field) (?:`[^`]*`|'[^']*'|\\S+) (?:is )?not supported");

    private static final List<NamedPattern> RATE_LIMIT = List.of(
            NamedPattern.of("rate-limit", "\\brate[ _-]?limit"),
            NamedPattern.of(
                    "too-many-requests",
                    "too many (?:\\w+ )?(?:requests|tokens)|no deployments available"
                            + "|spike arrest|requests? threshold (?:reached|exceeded)"),
            NamedPattern.of("rate-limit-chinese", "请求过于频繁|请求过多|频率(?:超限|限制|过高)|速率限制|限流|并发(?:数)?(?:超限|过高|超过)"),
            NamedPattern.of("throttled", "throttl"));

    /** A standalone 429 decides only after the transient wording: "Error code: 429 - … overloaded" is an overload. */
    private static final NamedPattern STATUS_429 = NamedPattern.of("status-429", NamedPattern.wholeNumber("429"));

    private static final List<NamedPattern> TRANSIENT = List.of(
            NamedPattern.of("overloaded", "overload"),
            NamedPattern.of("provider-returned-error", "provider returned error"),
            NamedPattern.of(
                    "service-unavailable", "service (?:is )?(?:temporarily )?unavailable|temporarily unavailable"),
            NamedPattern.of("server-error", "server[ _]error|internal[ _]error|server had an error"),
            NamedPattern.of("bad-gateway", "bad gateway"),
            NamedPattern.of("gateway-timeout", "gateway time-?out"),
            NamedPattern.of("retry-your-request", "retry your request"),
            NamedPattern.of("upstream-connect", "upstream connect error|reset before headers|no healthy upstream"),
            NamedPattern.of("stream-stalled", "stream stalled"),
            NamedPattern.of(
                    "truncated-stream",
                    "stream ended before|ended before the reply was complete|stream disconnected before completion"),
            NamedPattern.of("finish-reason-error", "finish_reason '?error'?"),
            NamedPattern.of("fetch-failed", "fetch failed|failed to fetch"),
            NamedPattern.of("timeout", "timed? ?out\\b|timeout|deadline exceeded"),
            NamedPattern.of(
                    "terminated",
                    "^(?:typeerror: )?terminated$|(?:error|exception): terminated\\b"
                            + "|(?:stream|request|fetch|socket|connection|response)(?: was)? terminated"
                            + "|terminated unexpectedly|\\bterminated; caused by"),
            NamedPattern.of("retry-delay", "retry delay|retry (?:in|after) \\d|try again in \\d"),
            NamedPattern.of(
                    "model-loading",
                    "(?:is )?currently loading|\\bmodel is (?:still )?loading|^loading model"
                            + "|slot unavailable|no (?:free |available |idle )slots?|no slots? (?:are )?available"
                            + "|all slots are busy"),
            NamedPattern.of(
                    "high-demand",
                    "high (?:traffic|demand|load)|temporary (?:errors?|issues?|problems?|failures?)"
                            + "|访问量过大|请(?:您)?稍后(?:再)?(?:重)?试"),
            NamedPattern.of(
                    "upstream-failure",
                    "invalid response (?:was )?(?:received )?from (?:the )?upstream"
                            + "|upstream (?:server )?(?:error|failure|unavailable|timed? ?out|closed|disconnected)"
                            + "|error from (?:the )?upstream"),
            NamedPattern.of(
                    "transient-chinese",
                    "服务(?:器)?(?:繁忙|不可用|暂时不可用|过载)|系统繁忙|网络(?:错误|异常)" + "|连接(?:失败|超时|被重置|中断|断开)|请稍后(?:再)?重试"),
            NamedPattern.of(
                    "try-again",
                    "\\btry (?:your request |the request |it |that )?again\\b"
                            + "(?!\\s+(?:with|using|by|once|after)\\b)|not ready (?:for|yet)"
                            + "|health check (?:failed|timed out)|unknown error"));

    /**
     * Wording of failures that no retry fixes, read before the transient and transport wording: proxies wrap an
     * access or request error into a "connection error" ({@code litellm.APIConnectionError: BedrockException - Model
     * access is denied …}).
     */
    private static final List<NamedPattern> CLIENT_ERROR = List.of(
            NamedPattern.of(
                    "client-error-status",
                    "\\b(?:400 Bad Request|401 Unauthorized|403 Forbidden|404 Not Found"
                            + "|405 Method Not Allowed|413 (?:Payload|Request Entity|Content) Too Large|422 Unprocessable)"
                            + "|\\b(?:HTTP|status(?: code)?|error code)[ :=]*(?:400|401|403|404|405|413|422)\\b"),
            NamedPattern.of(
                    "client-error-type",
                    "\\b(?:ValidationException|AccessDeniedException|BadRequestError"
                            + "|AuthenticationError|PermissionDeniedError|NotFoundError|UnprocessableEntityError"
                            + "|InvalidRequestError|invalid_request_error)\\b"),
            NamedPattern.of(
                    "invalid-request",
                    "\\binvalid (?:value|schema|parameter|argument|param|request body)\\b"
                            + "|\\bis not of type\\b|\\b(?:parsing|parse|unmarshal)\\w*\\W+(?:\\w+\\W+){0,2}?request"
                            + "|request body\\b[^.]{0,40}?(?:invalid|malformed|EOF|unexpected end)|malformed (?:request|json"
                            + "|input)|without tool_result|tool_use ids? (?:were|was) found"));

    private static final List<NamedPattern> TERMINAL = List.of(
            NamedPattern.of(
                    "access-denied",
                    "access (?:is |was )?denied|not authori[sz]ed to|\\bunauthori[sz]ed\\b"
                            + "|permission[ _]denied|\\bforbidden\\b"),
            NamedPattern.of(
                    "invalid-credentials",
                    "invalid[ _](?:api[ _-]?key|x-api-key|authentication|auth|bearer"
                            + "|token|credentials?)|incorrect api key|authentication[ _](?:failed|error)|api key (?:is |was |has been )?"
                            + "(?:invalid|missing|not valid|expired|revoked|disabled)"),
            NamedPattern.of(
                    "unknown-model",
                    "model (?:`[^`]*`|'[^']*'|\"[^\"]*\"|\\S+) (?:was )?(?:not found|does not "
                            + "exist)|no such model|unknown model|model not found|\\b(?:deployment|endpoint)s?\\b[^.]{0,40}?\\b(?:not "
                            + "found|does not exist|doesn't exist)|no endpoints found"),
            NamedPattern.of(
                    "content-policy",
                    "content[ _](?:policy|filter|management)|violates? (?:our|the) (?:usage "
                            + "|content )?polic|safety (?:system|filter|policy)"),
            NamedPattern.of("unknown-command", "unknown command|command not found"),
            UNSUPPORTED);

    private static final List<NamedPattern> TRANSIENT_STATUS = List.of(
            NamedPattern.of("status-500", NamedPattern.wholeNumber("500")),
            NamedPattern.of("status-502", NamedPattern.wholeNumber("502")),
            NamedPattern.of("status-503", NamedPattern.wholeNumber("503")),
            NamedPattern.of("status-504", NamedPattern.wholeNumber("504")),
            NamedPattern.of("status-529", NamedPattern.wholeNumber("529")),
            NamedPattern.of("status-52x", NamedPattern.wholeNumber("52[0-7]")));

    private TextRules() {}

    /** Whether {@code text} reports a TLS certificate that could not be verified. */
    static boolean isCertificateFailure(String text) {
        return TLS_CERTIFICATE.foundIn(text);
    }

    /** The verdict the text supports; terminal {@code unrecognised} when nothing matches. */
    static Classification classify(String text) {
        if (isCertificateFailure(text)) {
            return Classification.terminal("text:" + TLS_CERTIFICATE.name());
        }
        return RequestSizeRules.match(text)
                .or(() -> LocalModelRules.match(text))
                .or(() -> entitlementOrBilling(text))
                .or(() -> AccountLimitRules.capacity(text)
                        .map(name -> Classification.usageLimit(UsageLimitReason.MODEL_CAPACITY, "text:" + name)))
                .or(() -> NamedPattern.firstIn(CLIENT_ERROR, text).map(name -> Classification.terminal("text:" + name)))
                .or(() -> AccountLimitRules.usageLimit(text)
                        .map(name -> Classification.usageLimit(LimitPeriods.period(text), "text:" + name)))
                .or(() -> NamedPattern.firstIn(RATE_LIMIT, text).map(name -> rateLimit(text, "text:" + name)))
                .or(() -> NamedPattern.firstIn(TERMINAL, text).map(name -> Classification.terminal("text:" + name)))
                .or(() -> transientWording(text).map(name -> Classification.retry(ErrorKind.TRANSIENT, "text:" + name)))
                .or(() -> STATUS_429.foundIn(text)
                        ? Optional.of(rateLimit(text, "text:" + STATUS_429.name()))
                        : Optional.empty())
                .or(() -> NamedPattern.firstIn(TRANSIENT_STATUS, text)
                        .map(name -> Classification.retry(ErrorKind.TRANSIENT, "text:" + name)))
                .orElseGet(() -> Classification.terminal("unrecognised"));
    }

    /** A request the server says it cannot handle (an unsupported parameter), as a terminal verdict. */
    static Optional<Classification> unsupportedRequest(String text) {
        return UNSUPPORTED.foundIn(text)
                ? Optional.of(Classification.terminal("text:" + UNSUPPORTED.name()))
                : Optional.empty();
    }

    /** The transient or transport wording of the text, if any. */
    static Optional<String> transientWording(String text) {
        return NamedPattern.firstIn(TRANSIENT, text).or(() -> TransportWording.match(text));
    }

    /**
     * A rate limit, or a {@link UsageLimitReason#QUOTA} usage limit when its window is a day or longer or it resets at
     * a time of day: such a limit does not end in seconds, whatever the provider calls it.
     */
    static Classification rateLimit(String text, String rule) {
        return LimitPeriods.outlastsMinutes(text)
                ? Classification.usageLimit(UsageLimitReason.QUOTA, rule)
                : Classification.retry(ErrorKind.RATE_LIMIT, rule);
    }

    private static Optional<Classification> entitlementOrBilling(String text) {
        return AccountLimitRules.entitlement(text)
                .map(name -> Classification.usageLimit(UsageLimitReason.ENTITLEMENT, "text:" + name))
                .or(() -> AccountLimitRules.billing(text)
                        .map(name -> Classification.usageLimit(UsageLimitReason.BILLING, "text:" + name)));
    }
}
