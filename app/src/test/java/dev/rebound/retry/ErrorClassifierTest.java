package dev.rebound.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.ErrorKind;
import dev.rebound.retry.Classification.Verdict;
import dev.rebound.session.ChatSession;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The classifier's rules that the corpus of real failures does not pin down on its own. */
class ErrorClassifierTest {
    private static final String COMPLETIONS = "openai-completions";
    private static final String RESPONSES = "openai-responses";

    private final ErrorClassifier classifier = new ErrorClassifier();

    @Nested
    class NumbersInText {
        @ParameterizedTest
        @ValueSource(
                strings = {
                    "the prompt used 4294 tokens",
                    "request req_504abc failed",
                    "request id-504-x failed",
                    "limit 5000 reached",
                    "code 1429",
                    "the call took 2.503 seconds",
                    "client version 1.429 is old"
                })
        void aStatusNumberInsideALongerTokenDecidesNothing(String text) {
            assertThat(classifyText(text)).isEqualTo(Classification.terminal("unrecognised"));
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "upstream answered HTTP 504.|text:status-504",
                    "proxy said (502)|text:status-502",
                    "status=503, giving up|text:status-503",
                    "529: Anthropic said no|text:status-529"
                })
        void aStatusNumberStandingAloneIsTransient(String text, String rule) {
            assertThat(classifyText(text)).isEqualTo(Classification.retry(ErrorKind.TRANSIENT, rule));
        }

        @Test
        void notImplementedAndVersionNotSupportedAreTerminal() {
            assertThat(classifier
                            .classify(input(error("501 Not Implemented", http(501)), COMPLETIONS))
                            .verdict())
                    .isEqualTo(Classification.Verdict.TERMINAL);
            assertThat(classifier
                            .classify(input(error("505 HTTP Version Not Supported", http(505)), COMPLETIONS))
                            .verdict())
                    .isEqualTo(Classification.Verdict.TERMINAL);
            assertThat(classifier
                            .classify(input(error("507 Insufficient Storage", http(507)), COMPLETIONS))
                            .kind())
                    .isEqualTo(ErrorKind.TRANSIENT);
        }

        @Test
        void aBadRequestStaysTerminalWhateverItSaysAboutCapacity() {
            AssistantMessage m = error(
                    "400 Bad Request: The batch queue is over capacity for your organization; "
                            + "reduce the batch size",
                    http(400));
            assertThat(classifier.classify(input(m, COMPLETIONS)).verdict()).isEqualTo(Classification.Verdict.TERMINAL);
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "terminated|TRANSIENT",
                    "TypeError: terminated|TRANSIENT",
                    "Connection lost while streaming after 0 characters (IOException: terminated)|TRANSIENT",
                    "Your account has been terminated.|TERMINAL"
                })
        void terminatedIsTransientOnlyInItsTransportSense(String text, String verdict) {
            Classification c = classifyText(text);
            assertThat(
                            c.verdict() == Classification.Verdict.RETRY
                                    ? "TRANSIENT"
                                    : c.verdict().name())
                    .isEqualTo(verdict);
        }

        @Test
        void aStandalone429IsARateLimit() {
            assertThat(classifyText("got 429 from upstream"))
                    .isEqualTo(Classification.retry(ErrorKind.RATE_LIMIT, "text:status-429"));
        }
    }

    @Test
    void aWordThatMerelyContainsRateLimitIsNoRateLimit() {
        assertThat(classifyText("the reply exceeds the moderate limits of this tier"))
                .isEqualTo(Classification.terminal("unrecognised"));
    }

    @Nested
    class Aborts {
        @ParameterizedTest
        @ValueSource(strings = {"Request was aborted", " Request was aborted. "})
        void aContentlessAbortWithTheGenericMessageNobodyAskedForIsRetried(String message) {
            Classification verdict = classifier.classify(aborted(message, List.of(), false));

            assertThat(verdict).isEqualTo(Classification.retry(ErrorKind.REASONLESS_ABORT, "reasonless-abort"));
        }

        @ParameterizedTest
        @NullAndEmptySource
        @ValueSource(strings = {"Aborted by the user", "Request was aborted by the edit guard"})
        void anAbortWithoutTheGenericMessageIsTheUsersAbort(String message) {
            assertThat(classifier.classify(aborted(message, List.of(), false)).rule())
                    .isEqualTo("user-abort");
        }

        @Test
        void anAbortWithAnyContentIsTheUsersAbortEvenIfNothingWasShown() {
            List<ContentBlock> invisible = List.of(new ContentBlock.Thinking("", false));

            assertThat(classifier.classify(aborted("Request was aborted", invisible, false)))
                    .isEqualTo(Classification.terminal("user-abort"));
        }

        @Test
        void anAbortWhileAnAbortIsRequestedIsNeverRetried() {
            assertThat(classifier.classify(aborted("Request was aborted", List.of(), true)))
                    .isEqualTo(Classification.terminal("user-abort"));
        }

        @Test
        void theGenericAbortMessageIsTheOneTheSessionWrites() {
            assertThat(ErrorClassifier.GENERIC_ABORT_MESSAGE).isEqualTo(ChatSession.ABORT_MESSAGE);
        }
    }

    @Nested
    class NotAnError {
        @Test
        void aCompleteReplyIsNotAnError() {
            AssistantMessage reply = message(StopReason.STOP, null, null, null, List.of(new ContentBlock.Text("Hi")));

            assertThat(classifier.classify(input(reply, COMPLETIONS))).isEqualTo(Classification.notAnError());
        }

        @ParameterizedTest
        @NullAndEmptySource
        @ValueSource(strings = " ")
        void anErrorWithoutAnErrorMessageIsNotClassified(String errorMessage) {
            AssistantMessage reply = message(StopReason.ERROR, errorMessage, null, http(503), List.of());

            assertThat(classifier.classify(input(reply, COMPLETIONS)).verdict()).isEqualTo(Verdict.NOT_AN_ERROR);
        }
    }

    @Nested
    class StructuredFacts {
        @ParameterizedTest
        @ValueSource(ints = {503, 529, 429})
        void shouldRetryFalseWinsOverARetryableStatus(int status) {
            ProviderFailure failure = failure(FailureKind.HTTP, status, null, null, Map.of("x-should-retry", " False"));

            assertThat(classify("Overloaded", failure)).isEqualTo(Classification.terminal("x-should-retry:false"));
        }

        @Test
        void shouldRetryTrueDoesNotMakeABadRequestRetryable() {
            ProviderFailure failure = failure(FailureKind.HTTP, 400, null, null, Map.of("x-should-retry", "true"));

            assertThat(classify("Bad request", failure)).isEqualTo(Classification.terminal("status:400"));
        }

        @Test
        void billingIsReportedEvenWhenTheServerSaysNotToRetry() {
            ProviderFailure failure = failure(FailureKind.HTTP, 402, null, null, Map.of("x-should-retry", "false"));

            assertThat(classify("Payment Required", failure))
                    .isEqualTo(Classification.usageLimit(UsageLimitReason.BILLING, "status:402"));
        }

        @ParameterizedTest
        @CsvSource({"408,status:408", "409,status:409", "500,status:500", "599,status:599"})
        void timeoutsConflictsAndServerErrorsAreTransient(int status, String rule) {
            assertThat(classify("no text to go by", failure(FailureKind.HTTP, status, null, null, Map.of())))
                    .isEqualTo(Classification.retry(ErrorKind.TRANSIENT, rule));
        }

        @ParameterizedTest
        @ValueSource(ints = {400, 401, 403, 404, 405, 413, 422, 451})
        void aClientErrorStaysTerminalWhateverItsTextPromises(int status) {
            String text = "Service unavailable, please retry your request: connection reset (timeout)";

            assertThat(classify(text, failure(FailureKind.HTTP, status, null, null, Map.of())))
                    .isEqualTo(Classification.terminal("status:" + status));
        }

        @Test
        void groqsFlexCapacityStatusIsModelCapacity() {
            assertThat(classify("498 Client Error (no body)", failure(FailureKind.HTTP, 498, null, null, Map.of())))
                    .isEqualTo(Classification.usageLimit(UsageLimitReason.MODEL_CAPACITY, "status:498"));
        }

        @ParameterizedTest
        @CsvSource({"429,RATE_LIMIT,stream-code:429", "502,TRANSIENT,stream-code:502"})
        void aStreamErrorWithANumericCodeIsTreatedLikeThatStatus(String code, ErrorKind kind, String rule) {
            ProviderFailure failure = failure(FailureKind.STREAM_ERROR, null, null, code, Map.of());

            assertThat(classify("The provider reported an error mid-stream: upstream said no", failure))
                    .isEqualTo(Classification.retry(kind, rule));
        }

        @Test
        void aStreamErrorCodeThatIsNoHttpStatusIsIgnored() {
            ProviderFailure failure = failure(FailureKind.STREAM_ERROR, null, null, "1300", Map.of());

            assertThat(classify("The provider reported an error mid-stream: nope", failure))
                    .isEqualTo(Classification.terminal("unrecognised"));
        }

        @Test
        void aTerminalTypeInsideAStreamIsTerminal() {
            ProviderFailure failure = failure(FailureKind.STREAM_ERROR, null, "invalid_request_error", null, Map.of());

            assertThat(classify("The provider reported an error mid-stream: messages.3: bad", failure))
                    .isEqualTo(Classification.terminal("type:invalid_request_error"));
        }

        @Test
        void aDailyQuotaOfResourceExhaustedIsAQuotaLimit() {
            ProviderFailure failure = failure(FailureKind.HTTP, 429, "RESOURCE_EXHAUSTED", "429", Map.of());
            String text = "429 Too Many Requests: Quota exceeded for quota metric 'Generate Content API requests"
                    + " per day' (type: RESOURCE_EXHAUSTED, code: 429)";

            assertThat(classify(text, failure))
                    .isEqualTo(Classification.usageLimit(
                            UsageLimitReason.QUOTA, "type:RESOURCE_EXHAUSTED:quota-exceeded"));
        }

        @Test
        void aTypedRateLimitWordedAsCreditsStaysARateLimit() {
            ProviderFailure failure = failure(FailureKind.HTTP, 429, "rate_limit_error", null, Map.of());

            assertThat(classify("429 Too Many Requests: insufficient credits for this burst", failure))
                    .isEqualTo(Classification.retry(ErrorKind.RATE_LIMIT, "type:rate_limit_error"));
        }
    }

    @Nested
    class FailureKinds {
        @Test
        void aCertificateThatCannotBeVerifiedIsTerminal() {
            String text = "Connection failed: TLS handshake with api.example:443 failed (SSLHandshakeException:"
                    + " PKIX path building failed)";

            assertThat(classify(text, ProviderFailure.of(FailureKind.TRANSPORT)))
                    .isEqualTo(Classification.terminal("text:tls-certificate"));
            assertThat(classifyText(text)).isEqualTo(Classification.terminal("text:tls-certificate"));
        }

        @Test
        void aReplyThatIsNotTheProtocolIsTerminalWhateverItSays() {
            String text = "Internal error while handling the reply: IllegalStateException: connection reset";

            assertThat(classify(text, ProviderFailure.of(FailureKind.PROTOCOL)))
                    .isEqualTo(Classification.terminal("kind:protocol"));
        }

        @Test
        void aConfigurationFailureIsTerminalEvenWhenWordedLikeAnOverflow() {
            String text = "Provider 'x' has a context window too small: maximum context length is 0";

            assertThat(classify(text, ProviderFailure.of(FailureKind.CONFIGURATION)))
                    .isEqualTo(Classification.terminal("kind:configuration"));
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "Connection reset before the response headers arrived (IOException: closed)|text:connection-reset",
                    "Stream stalled: no data for 300 ms (timeouts.idleMs); 0 characters had arrived|text:stream-stalled",
                    "The stream ended before the reply was complete (no finish_reason or [DONE] received); 0 characters"
                            + " had arrived|text:truncated-stream",
                    "Request timed out: no response from the server within 300 ms (timeouts.firstByteMs)|text:timeout"
                })
        void reboundsOwnTransportMessagesAreTransientWithoutTheirFacts(String text, String rule) {
            assertThat(classifyText(text)).isEqualTo(Classification.retry(ErrorKind.TRANSIENT, rule));
        }
    }

    @Nested
    class OverflowAndRefusal {
        @Test
        void anOverflowIsNeverRetriedEvenWhenTheServerInvitesIt() {
            ProviderFailure failure =
                    failure(FailureKind.HTTP, 503, "overloaded_error", null, Map.of("x-should-retry", "true"));

            assertThat(classify("prompt is too long: 212000 tokens > 200000 maximum", failure)
                            .verdict())
                    .isEqualTo(Verdict.CONTEXT_OVERFLOW);
        }

        @Test
        void aThroughputLimitCountingTokensIsNoOverflow() {
            assertThat(classifyText("Too many tokens, please wait before trying again.")
                            .verdict())
                    .isNotEqualTo(Verdict.CONTEXT_OVERFLOW);
        }

        @Test
        void aRefusalIsRetriedEvenAfterVisibleOutput() {
            AssistantMessage refused = message(
                    StopReason.ERROR,
                    "The model refused to answer: no",
                    new StopDetails(StopDetails.REFUSAL, "no"),
                    null,
                    List.of(new ContentBlock.Text("Sure, ")));

            assertThat(classifier.classify(input(refused, COMPLETIONS)))
                    .isEqualTo(Classification.retry(ErrorKind.REFUSAL, "stop-details:refusal"));
        }

        @Test
        void aRefusalIsNeverReadFromText() {
            assertThat(classifyText("I'm sorry, I cannot assist with that request")
                            .verdict())
                    .isEqualTo(Verdict.TERMINAL);
        }
    }

    @Nested
    class StaleReplay {
        private static final String ITEM_GONE = "404 Not Found: Item with id 'rs_123' not found.";

        @Test
        void aStaleReplayIsRetriedForTheResponsesApi() {
            assertThat(classifier.classify(input(error(ITEM_GONE, http(404)), RESPONSES)))
                    .isEqualTo(Classification.retry(ErrorKind.STALE_REPLAY, "stale-replay:item-not-found"));
        }

        @Test
        void theMessagesOwnApiIsUsedWhenTheInputNamesNone() {
            AssistantMessage reply = new AssistantMessage(
                    "m",
                    List.of(),
                    "p",
                    "model",
                    RESPONSES,
                    null,
                    null,
                    StopReason.ERROR,
                    ITEM_GONE,
                    null,
                    http(404),
                    0L);

            assertThat(classifier
                            .classify(new ClassifierInput(reply, null, false))
                            .kind())
                    .isEqualTo(ErrorKind.STALE_REPLAY);
        }

        @Test
        void aStaleReplayAfterVisibleOutputIsNotReplayed() {
            AssistantMessage reply = message(
                    StopReason.ERROR,
                    ITEM_GONE,
                    null,
                    http(404),
                    List.of(new ContentBlock.ToolCall("call_1", "read", "{}")));

            assertThat(classifier.classify(input(reply, RESPONSES)))
                    .isEqualTo(Classification.terminal("observable-output"));
        }
    }

    /** The families of issue 13, at their edges: the cases the corpus of real texts does not reach on its own. */
    @Nested
    class Families {
        @ParameterizedTest
        @ValueSource(
                strings = {
                    "Request too large for gpt-4.1 in organization org-x on tokens per min (TPM): Limit 30000, "
                            + "Requested 30001. The input or output tokens must be reduced in order to run successfully.",
                    "Request too large for model `llama-3.3-70b` on tokens per minute (TPM): Limit: 6,000, Requested: "
                            + "12,903, please reduce your message size and try again.",
                    "rate limit on requests per min (RPM) - limit 10; used 0; requested ~11"
                })
        void aRequestLargerThanAPerMinuteLimitIsTerminalWithAdvice(String text) {
            Classification c = classify(
                    "429 Too Many Requests: " + text,
                    failure(FailureKind.HTTP, 429, "tokens", "rate_limit_exceeded", Map.of()));
            assertThat(c)
                    .isEqualTo(Classification.terminal(
                            "text:request-exceeds-rate-limit", Advice.REQUEST_EXCEEDS_RATE_LIMIT));
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29990, Requested 500.",
                    "Rate limit reached on tokens per min (TPM): Limit 30000, Requested 30000.",
                    "Request too large? No: Limit 30000, Requested 1 (tokens per minute)"
                })
        void aRequestThatFitsThePerMinuteLimitStaysARateLimit(String text) {
            Classification c = classify(
                    "429 Too Many Requests: " + text,
                    failure(FailureKind.HTTP, 429, "tokens", "rate_limit_exceeded", Map.of()));
            assertThat(c.kind()).isEqualTo(ErrorKind.RATE_LIMIT);
        }

        @Test
        void limitAndRequestedNumbersWithoutAPerMinuteBudgetDecideNothingOnTheirOwn() {
            assertThat(classifyText("Batch rejected: limit 10, requested 12 files")
                            .verdict())
                    .isEqualTo(Verdict.TERMINAL);
            assertThat(classifyText("Batch rejected: limit 10, requested 12 files")
                            .advice())
                    .isNull();
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "Rate limit reached for model x on requests per day (RPD): Limit 1000, Used 1000, Requested 1.",
                    "Rate limit exceeded: free-models-per-day",
                    "Quota exceeded for quota metric 'Generate requests' and limit 'GenerateRequestsPerDayPerProjectPerModel'",
                    "You have exceeded the daily request limit for this key",
                    "Too many requests: monthly token allowance exhausted, resets on Jan 1",
                    "Rate limited: limit_rpd/google/gemini-2.0-flash"
                })
        void aLimitOfADayOrLongerIsAQuotaWhateverItIsTyped(String text) {
            Classification c = classify(
                    "429 Too Many Requests: " + text,
                    failure(FailureKind.HTTP, 429, "rate_limit_error", null, Map.of()));
            assertThat(c.kind()).isEqualTo(ErrorKind.USAGE_LIMIT);
            assertThat(c.usageLimitReason()).isEqualTo(UsageLimitReason.QUOTA);
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "Rate limit reached on tokens per min (TPM). Need more tokens? Upgrade to Dev Tier today at "
                            + "https://console.groq.com/settings/billing",
                    "Too many requests, please slow down (requests per second)",
                    "Rate limit exceeded: free-models-per-min."
                })
        void aPerMinuteLimitWithAnUpsellStaysARateLimit(String text) {
            Classification c = classify(
                    "429 Too Many Requests: " + text,
                    failure(FailureKind.HTTP, 429, "rate_limit_error", null, Map.of()));
            assertThat(c.kind()).isEqualTo(ErrorKind.RATE_LIMIT);
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "You have reached your message limit. Your limit will reset at 9:30 AM.",
                    "You've hit your limit · resets 5am (Europe/Berlin)",
                    "Usage cap hit. It resets Thu, Dec 3 at 10am."
                })
        void aLimitThatResetsAtAClockTimeIsAQuota(String text) {
            Classification c = classifyText(text);
            assertThat(c.kind()).isEqualTo(ErrorKind.USAGE_LIMIT);
            assertThat(c.usageLimitReason()).isEqualTo(UsageLimitReason.QUOTA);
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "Extra usage is required for long context requests.",
                    "This model requires a paid plan. Upgrade at https://example.com/billing",
                    "Your organization does not have access to this model.",
                    "Model gpt-5-pro is not available on the free tier",
                    "Quota exceeded for metric: generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro"
                })
        void anEntitlementGateSentAsARateLimitNeverWaits(String text) {
            Classification c = classify(
                    "429 Too Many Requests: " + text,
                    failure(FailureKind.HTTP, 429, "rate_limit_error", null, Map.of()));
            assertThat(c.usageLimitReason()).isEqualTo(UsageLimitReason.ENTITLEMENT);
            assertThat(c.advice()).isEqualTo(Advice.NOT_ENTITLED);
            assertThat(c.usageLimitReason().neverWaits()).isTrue();
        }

        @Test
        void anEntitlementWordingOnAForbiddenStatusStaysTerminal() {
            assertThat(classify("403 Forbidden: Your organization does not have access to this model.", http(403)))
                    .isEqualTo(Classification.terminal("status:403"));
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "Quota exceeded: limit: 0.5 requests per second",
                    "rate limit: 0,5 rps",
                    "limit: 05 per minute"
                })
        void aZeroLimitIsOnlyAZero(String text) {
            assertThat(classify("429 Too Many Requests: " + text, http(429)).usageLimitReason())
                    .isNotEqualTo(UsageLimitReason.ENTITLEMENT);
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "model requires more system memory (12.3 GiB) than is available (7.1 GiB)|text:model-memory",
                    "llama runner process has terminated: exit status 0xc0000409|text:model-runner-died",
                    "error loading model: llama_model_loader: failed to load model from /models/x.gguf|text:model-load-failed",
                    "unknown model architecture: 'qwen3moe'|text:model-architecture",
                    "invalid model file: not a valid GGUF|text:model-file",
                    "CUDA error: out of memory|text:model-memory"
                })
        void aModelServerThatCannotLoadTheModelIsTerminalWithAdvice(String text, String rule) {
            assertThat(classify(
                            "500 Internal Server Error: " + text,
                            failure(FailureKind.HTTP, 500, "api_error", null, Map.of())))
                    .isEqualTo(Classification.terminal(rule, Advice.MODEL_CANNOT_LOAD));
            assertThat(classifyText(text)).isEqualTo(Classification.terminal(rule, Advice.MODEL_CANNOT_LOAD));
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "Loading model",
                    "server busy, please try again.  maximum pending requests exceeded",
                    "Model is currently loading, please retry in 20s"
                })
        void aModelServerThatIsOnlyBusyOrLoadingIsTransient(String text) {
            assertThat(classify(
                                    "503 Service Unavailable: " + text,
                                    failure(FailureKind.HTTP, 503, "unavailable_error", null, Map.of()))
                            .kind())
                    .isEqualTo(ErrorKind.TRANSIENT);
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "httpx.RemoteProtocolError: peer closed connection without sending complete message body",
                    "aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected",
                    "requests.exceptions.ConnectionError: ('Connection aborted.', RemoteDisconnected('Remote end closed "
                            + "connection without response'))",
                    "TypeError: fetch failed; caused by SocketError: other side closed (UND_ERR_SOCKET)",
                    "read tcp 10.0.0.2:51234->1.2.3.4:443: read: connection reset by peer",
                    "http2: server sent GOAWAY and closed the connection",
                    "java.net.SocketException: Unexpected end of file from server",
                    "okhttp3.internal.http2.StreamResetException: stream was reset: CANCEL",
                    "Unexpected socket close",
                    "curl: (52) Empty reply from server",
                    "request ended without sending any chunks",
                    "The upstream did not send a response"
                })
        void transportFailuresReportedAsTextAreTransient(String text) {
            assertThat(classifyText(text).kind()).as(text).isEqualTo(ErrorKind.TRANSIENT);
            assertThat(classify(
                                    "The provider reported an error mid-stream: " + text,
                                    failure(FailureKind.STREAM_ERROR, null, null, null, Map.of()))
                            .kind())
                    .isEqualTo(ErrorKind.TRANSIENT);
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "httpcore.ConnectError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get "
                            + "local issuer certificate",
                    "TypeError: fetch failed; caused by Error: self-signed certificate in certificate chain",
                    "tls: failed to verify certificate: x509: certificate signed by unknown authority",
                    "litellm.APIConnectionError: BedrockException - Model access is denied for this account",
                    "Connection error: invalid x-api-key",
                    "Your account has been terminated."
                })
        void connectionWordsAroundACertificateOrAccessFailureAreTerminal(String text) {
            assertThat(classifyText(text).verdict()).as(text).isEqualTo(Verdict.TERMINAL);
        }
    }

    @Test
    void everyRetryableKindButRefusalIsGuardedByObservableOutput() {
        List<ContentBlock> shown = List.of(new ContentBlock.Thinking("", true));
        List<ProviderFailure> failures = List.of(http(503), http(429), http(402));

        assertThat(failures)
                .allSatisfy(failure -> assertThat(classifier.classify(
                                input(message(StopReason.ERROR, "failed", null, failure, shown), COMPLETIONS)))
                        .isEqualTo(Classification.terminal("observable-output")));
    }

    private Classification classifyText(String text) {
        return classifier.classify(input(error(text, null), COMPLETIONS));
    }

    private Classification classify(String text, ProviderFailure failure) {
        return classifier.classify(input(error(text, failure), COMPLETIONS));
    }

    private static ClassifierInput input(AssistantMessage message, String api) {
        return new ClassifierInput(message, api, false);
    }

    private static ClassifierInput aborted(String message, List<ContentBlock> content, boolean abortRequested) {
        return new ClassifierInput(
                message(StopReason.ABORTED, message, null, null, content), COMPLETIONS, abortRequested);
    }

    private static AssistantMessage error(String text, ProviderFailure failure) {
        return message(StopReason.ERROR, text, null, failure, List.of());
    }

    private static AssistantMessage message(
            StopReason stopReason,
            String errorMessage,
            StopDetails details,
            ProviderFailure failure,
            List<ContentBlock> content) {
        return new AssistantMessage(
                "m", content, "p", "model", COMPLETIONS, null, null, stopReason, errorMessage, details, failure, 0L);
    }

    private static ProviderFailure http(int status) {
        return failure(FailureKind.HTTP, status, null, null, Map.of());
    }

    private static ProviderFailure failure(
            FailureKind kind, Integer status, String type, String code, Map<String, String> headers) {
        return new ProviderFailure(kind, status, type, code, headers);
    }
}
