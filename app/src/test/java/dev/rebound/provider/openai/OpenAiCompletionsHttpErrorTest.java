package dev.rebound.provider.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.provider.CallControl;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** HTTP error statuses with the bodies and headers real providers send. */
class OpenAiCompletionsHttpErrorTest {
    private CompletionsFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new CompletionsFixture();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void openAiRateLimitKeepsTypeCodeAndRateLimitHeaders() {
        AssistantMessage message = failWith(
                429,
                """
                {
                    "error": {
                        "message": "Rate limit reached for gpt-4.1-mini in organization org-Xy12 on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.",
                        "type": "requests",
                        "param": null,
                        "code": "rate_limit_exceeded"
                    }
                }""",
                "x-ratelimit-limit-requests: 3",
                "x-ratelimit-remaining-requests: 0",
                "x-ratelimit-reset-requests: 20s",
                "x-ratelimit-limit-tokens: 40000",
                "x-ratelimit-remaining-tokens: 39950",
                "x-ratelimit-reset-tokens: 75ms",
                "x-request-id: req_8f2c1a",
                "openai-organization: org-Xy12",
                "set-cookie: __cf_bm=abc; path=/",
                "cf-ray: 8f1e2d3c4b5a6978-FRA",
                "openai-processing-ms: 12");

        assertThat(message.errorMessage())
                .isEqualTo("429 Too Many Requests: Rate limit reached for gpt-4.1-mini in "
                        + "organization org-Xy12 on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in "
                        + "20s. Visit https://platform.openai.com/account/rate-limits to learn more. "
                        + "(type: requests, code: rate_limit_exceeded)");
        ProviderFailure failure = message.failure();
        assertThat(failure.kind()).isEqualTo(FailureKind.HTTP);
        assertThat(failure.httpStatus()).isEqualTo(429);
        assertThat(failure.errorType()).isEqualTo("requests");
        assertThat(failure.errorCode()).isEqualTo("rate_limit_exceeded");
        assertThat(failure.headers())
                .containsOnlyKeys(
                        "x-ratelimit-limit-requests",
                        "x-ratelimit-remaining-requests",
                        "x-ratelimit-reset-requests",
                        "x-ratelimit-limit-tokens",
                        "x-ratelimit-remaining-tokens",
                        "x-ratelimit-reset-tokens",
                        "x-request-id",
                        "cf-ray",
                        "openai-processing-ms");
        assertThat(failure.header("x-ratelimit-reset-requests")).isEqualTo("20s");
        assertThat(message.content()).isEmpty();
        assertThat(message.stopDetails()).isNull();
    }

    @Test
    void openAiInsufficientQuota() {
        AssistantMessage message = failWith(429, """
                {"error":{"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}""");

        assertThat(message.errorMessage())
                .isEqualTo("429 Too Many Requests: You exceeded your current quota, please "
                        + "check your plan and billing details. For more information on this error, read the docs: "
                        + "https://platform.openai.com/docs/guides/error-codes/api-errors. "
                        + "(type: insufficient_quota, code: insufficient_quota)");
        assertThat(message.failure().errorCode()).isEqualTo("insufficient_quota");
    }

    @Test
    void openAiInvalidKeyKeepsTheServersMaskedKey() {
        AssistantMessage message = failWith(401, """
                {
                    "error": {
                        "message": "Incorrect API key provided: sk-test-********************ghij. You can find your API key at https://platform.openai.com/account/api-keys.",
                        "type": "invalid_request_error",
                        "param": null,
                        "code": "invalid_api_key"
                    }
                }""", "x-request-id: req_401");

        assertThat(message.errorMessage())
                .isEqualTo(
                        "401 Unauthorized: Incorrect API key provided: "
                                + "sk-test-********************ghij. You can find your API key at "
                                + "https://platform.openai.com/account/api-keys. (type: invalid_request_error, code: invalid_api_key)");
        assertThat(message.failure().httpStatus()).isEqualTo(401);
        assertThat(message.toString()).doesNotContain(CompletionsFixture.KEY);
    }

    @Test
    void openAiContextLengthExceeded() {
        AssistantMessage message = failWith(400, """
                {
                  "error": {
                    "message": "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
                    "type": "invalid_request_error",
                    "param": "messages",
                    "code": "context_length_exceeded"
                  }
                }""");

        assertThat(message.errorMessage())
                .isEqualTo("400 Bad Request: This model's maximum context length is 128000 "
                        + "tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages. "
                        + "(type: invalid_request_error, code: context_length_exceeded)");
        assertThat(message.failure().errorCode()).isEqualTo("context_length_exceeded");
    }

    @Test
    void anthropicOverloadedWithShouldRetryHeader() {
        AssistantMessage message = failWith(
                529,
                """
                {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}""",
                "x-should-retry: true",
                "request-id: req_011CSHoEeqs5C35K2UUqR7Fy",
                "anthropic-organization-id: 0b7c1e7d-aaaa-bbbb-cccc-123456789abc");

        assertThat(message.errorMessage()).isEqualTo("529 Overloaded: Overloaded (type: overloaded_error)");
        assertThat(message.failure().httpStatus()).isEqualTo(529);
        assertThat(message.failure().errorType()).isEqualTo("overloaded_error");
        assertThat(message.failure().errorCode()).isNull();
        assertThat(message.failure().headers()).containsOnlyKeys("x-should-retry", "request-id");
        assertThat(message.failure().header("x-should-retry")).isEqualTo("true");
    }

    @Test
    void anthropicRateLimitWithRetryAfterAndResetHeaders() {
        AssistantMessage message = failWith(
                429,
                """
                {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization (0b7c1e7d-aaaa-bbbb-cccc-123456789abc) of 50 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later."},"request_id":"req_011CV1"}""",
                "retry-after: 27",
                "anthropic-ratelimit-requests-limit: 50",
                "anthropic-ratelimit-requests-remaining: 49",
                "anthropic-ratelimit-requests-reset: 2026-12-01T10:00:27Z",
                "anthropic-ratelimit-input-tokens-limit: 50",
                "anthropic-ratelimit-input-tokens-remaining: 0",
                "anthropic-ratelimit-input-tokens-reset: 2026-12-01T10:00:27Z",
                "request-id: req_011CV1");

        assertThat(message.errorMessage())
                .startsWith("429 Too Many Requests: This request would exceed the rate limit")
                .endsWith("or try again later. (type: rate_limit_error)");
        assertThat(message.failure().errorType()).isEqualTo("rate_limit_error");
        assertThat(message.failure().header("retry-after")).isEqualTo("27");
        assertThat(message.failure().header("anthropic-ratelimit-requests-reset"))
                .isEqualTo("2026-12-01T10:00:27Z");
        assertThat(message.failure().headers()).hasSize(8);
    }

    @Test
    void geminiResourceExhaustedInAnArrayKeepsStatusRetryDelayAndTheViolatedQuota() {
        AssistantMessage message = failWith(429, """
                [{
                  "error": {
                    "code": 429,
                    "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: gemini-2.5-flash\\nPlease retry in 38.470252s.",
                    "status": "RESOURCE_EXHAUSTED",
                    "details": [
                      {
                        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                        "violations": [
                          {
                            "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                            "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
                            "quotaDimensions": {"location": "global", "model": "gemini-2.5-flash"},
                            "quotaValue": "10"
                          }
                        ]
                      },
                      {
                        "@type": "type.googleapis.com/google.rpc.Help",
                        "links": [{"description": "Learn more about Gemini API quotas", "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}]
                      },
                      {
                        "@type": "type.googleapis.com/google.rpc.RetryInfo",
                        "retryDelay": "38s"
                      }
                    ]
                  }
                }
                ]""");

        assertThat(message.errorMessage())
                .startsWith("429 Too Many Requests: You exceeded your current quota")
                .contains("\n* Quota exceeded for metric: generativelanguage.googleapis.com/")
                .endsWith("Please retry in 38.470252s. (type: RESOURCE_EXHAUSTED, code: 429, retryDelay: 38s, "
                        + "quota: GenerateRequestsPerMinutePerProjectPerModel-FreeTier)");
        assertThat(message.failure().errorType()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(message.failure().errorCode()).isEqualTo("429");
    }

    @Test
    void geminiUnavailable() {
        AssistantMessage message = failWith(503, """
                {
                  "error": {
                    "code": 503,
                    "message": "The model is overloaded. Please try again later.",
                    "status": "UNAVAILABLE"
                  }
                }""");

        assertThat(message.errorMessage())
                .isEqualTo("503 Service Unavailable: The model is overloaded. Please try "
                        + "again later. (type: UNAVAILABLE, code: 503)");
        assertThat(message.failure().errorType()).isEqualTo("UNAVAILABLE");
    }

    @Test
    void openRouterPaymentRequired() {
        AssistantMessage message = failWith(402, """
                {"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 3395. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account","code":402,"metadata":{"provider_name":null}},"user_id":"user_2abc"}""");

        assertThat(message.errorMessage())
                .isEqualTo("402 Payment Required: This request requires more credits, or "
                        + "fewer max_tokens. You requested up to 65536 tokens, but can only afford 3395. To increase, visit "
                        + "https://openrouter.ai/settings/credits and upgrade to a paid account (code: 402)");
        assertThat(message.failure().errorCode()).isEqualTo("402");
        assertThat(message.failure().errorType()).isNull();
    }

    @Test
    void openRouterUpstreamErrorNamesTheUpstream() {
        AssistantMessage message = failWith(429, """
                {"error":{"message":"Provider returned error","code":429,"metadata":{"raw":"google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations","provider_name":"Google AI Studio"}},"user_id":"user_2abc"}""");

        assertThat(message.errorMessage())
                .isEqualTo("429 Too Many Requests: Provider returned error (upstream Google "
                        + "AI Studio: google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream. Please retry "
                        + "shortly, or add your own key to accumulate your rate limits: "
                        + "https://openrouter.ai/settings/integrations) (code: 429)");
    }

    @Test
    void azureRateLimitWithRetryAfterHeaders() {
        AssistantMessage message = failWith(
                429,
                """
                {"error":{"code":"429","message": "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."}}""",
                "retry-after: 6",
                "retry-after-ms: 6000",
                "x-ratelimit-remaining-requests: 119",
                "x-ratelimit-remaining-tokens: 0",
                "apim-request-id: 5c1a7e3f-1111-2222-3333-444455556666",
                "x-ms-region: Sweden Central");

        assertThat(message.errorMessage())
                .isEqualTo("429 Too Many Requests: Requests to the ChatCompletions_Create "
                        + "Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current "
                        + "OpenAI S0 pricing tier. Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease "
                        + "if you would like to further increase the default rate limit. (code: 429)");
        assertThat(message.failure().header("retry-after-ms")).isEqualTo("6000");
        assertThat(message.failure().header("retry-after")).isEqualTo("6");
        assertThat(message.failure().headers()).doesNotContainKey("x-ms-region");
    }

    @Test
    void groqTokensPerMinuteLimit() {
        AssistantMessage message =
                failWith(429, """
                {"error":{"message":"Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01jabc` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 11200, Requested 2345. Please try again in 7.725s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing","type":"tokens","code":"rate_limit_exceeded"}}""", "retry-after: 8", "x-ratelimit-reset-tokens: 7.725s", "x-request-id: req_01jgroq");

        assertThat(message.errorMessage())
                .startsWith("429 Too Many Requests: Rate limit reached for model " + "`llama-3.3-70b-versatile`")
                .contains("Please try again in 7.725s.")
                .endsWith("(type: tokens, code: rate_limit_exceeded)");
        assertThat(message.failure().header("x-ratelimit-reset-tokens")).isEqualTo("7.725s");
    }

    @Test
    void mistralFlatErrorObject() {
        AssistantMessage message = failWith(429, """
                {"object":"error","message":"Rate limit exceeded","type":"rate_limited","param":null,"code":"1300","raw_status_code":429}""");

        assertThat(message.errorMessage())
                .isEqualTo("429 Too Many Requests: Rate limit exceeded (type: rate_limited, code: 1300)");
        assertThat(message.failure().errorType()).isEqualTo("rate_limited");
        assertThat(message.failure().errorCode()).isEqualTo("1300");
    }

    @Test
    void cloudflareBadGatewayHtmlPageBecomesOneLine() {
        fixture.enqueue(new MockResponse.Builder()
                .code(502)
                .addHeader("Content-Type", "text/html")
                .addHeader("cf-ray", "8f1e2d3c4b5a6978-AMS")
                .body("""
                        <html>
                        <head><title>502 Bad Gateway</title></head>
                        <body>
                        <center><h1>502 Bad Gateway</h1></center>
                        <hr><center>cloudflare</center>
                        </body>
                        </html>
                        """)
                .build());

        AssistantMessage message = fixture.stream().message();

        assertThat(message.errorMessage()).isEqualTo("502 Bad Gateway: 502 Bad Gateway 502 Bad Gateway cloudflare");
        assertThat(message.failure().httpStatus()).isEqualTo(502);
        assertThat(message.failure().errorType()).isNull();
        assertThat(message.failure().header("cf-ray")).isEqualTo("8f1e2d3c4b5a6978-AMS");
    }

    @Test
    void envoyPlainTextBodyIsKeptVerbatim() {
        AssistantMessage message = failWith(
                503, "upstream connect error or disconnect/reset before headers. reset reason: connection termination");

        assertThat(message.errorMessage())
                .isEqualTo("503 Service Unavailable: upstream connect error or "
                        + "disconnect/reset before headers. reset reason: connection termination");
    }

    @Test
    void anEmptyBodySaysSo() {
        AssistantMessage message = failWith(503, "");

        assertThat(message.errorMessage()).isEqualTo("503 Service Unavailable (no body)");
        assertThat(message.failure().httpStatus()).isEqualTo(503);
    }

    @Test
    void anUnknownStatusUsesTheServersReasonPhrase() {
        fixture.enqueue(new MockResponse.Builder()
                .status("HTTP/1.1 460 Custom Gateway Refusal")
                .build());

        AssistantMessage message = fixture.stream().message();

        assertThat(message.errorMessage()).isEqualTo("460 Custom Gateway Refusal (no body)");
    }

    @Test
    void aKeyEchoedByTheServerIsRedactedFromTheMessage() {
        String canary = "sk-canary-7f3a9c2e51b84d6a";
        fixture.enqueue(new MockResponse.Builder()
                .code(401)
                .addHeader("Content-Type", "application/json")
                .addHeader("x-request-id", "echo " + canary)
                .body("{\"error\":{\"message\":\"Invalid key " + canary + " for this project\","
                        + "\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}")
                .build());

        AssistantMessage message = fixture.stream(
                        fixture.request(
                                fixture.baseUrl(), CompletionsFixture.credential(canary), CompletionsFixture.QUICK),
                        new CallControl())
                .message();

        assertThat(message.errorMessage())
                .isEqualTo("401 Unauthorized: Invalid key [redacted] for this project "
                        + "(type: invalid_request_error, code: invalid_api_key)");
        assertThat(message.failure().header("x-request-id")).isEqualTo("echo [redacted]");
        assertThat(message.toString()).doesNotContain(canary);
    }

    private AssistantMessage failWith(int status, String body, String... headers) {
        MockResponse.Builder response = new MockResponse.Builder().code(status);
        if (!body.isEmpty()) {
            response.addHeader(
                    "Content-Type", body.startsWith("{") || body.startsWith("[") ? "application/json" : "text/plain");
            response.body(body);
        }
        for (String header : headers) {
            response.addHeader(header);
        }
        fixture.enqueue(response.build());
        AssistantMessage message = fixture.stream().message();
        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.HTTP);
        assertThat(message.failure().httpStatus()).isEqualTo(status);
        return message;
    }
}
