package dev.rebound.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Provider delay hints (§4 of the retry policy), read against a fixed clock: now is 2026-12-01T10:00:00Z. */
class RetryHintsTest {
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final long NOW_EPOCH_SECONDS = 1_796_119_200L;
    private static final long SEVEN_DAYS_MS = 7L * 24 * 3600 * 1000;

    private final RetryHints hints = new RetryHints(Clock.fixed(NOW, ZoneOffset.UTC));

    private static ProviderFailure http(int status, String... headerLines) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line : headerLines) {
            int colon = line.indexOf(':');
            headers.put(
                    line.substring(0, colon).strip(), line.substring(colon + 1).strip());
        }
        return new ProviderFailure(FailureKind.HTTP, status, null, null, headers);
    }

    private static ProviderFailure headers(Map<String, String> headers) {
        return new ProviderFailure(FailureKind.HTTP, 429, null, null, headers);
    }

    private Optional<RetryHint> parse(ProviderFailure failure, String message) {
        return hints.parse(failure, message);
    }

    private RetryHint header(String name, String value) {
        return parse(headers(Map.of(name, value)), null).orElseThrow();
    }

    @Test
    void waitNSecondsBeforeRetryingIsAHint() {
        assertThat(parse(
                        http(429),
                        "Rate limit of 150 per 86400s exceeded for UserByModelByDay. Please wait 43210 "
                                + "seconds before retrying."))
                .hasValue(new RetryHint(43_210_000, "body:wait"));
    }

    @Nested
    class RealProviders {
        @Test
        void openAiRequestLimitTakesThePleaseTryAgainInOfTheBodyOverTheResetHeaders() {
            ProviderFailure failure = http(
                    429,
                    "x-ratelimit-limit-requests: 10000",
                    "x-ratelimit-remaining-requests: 0",
                    "x-ratelimit-reset-requests: 6m0s",
                    "x-ratelimit-limit-tokens: 2000000",
                    "x-ratelimit-remaining-tokens: 1999850",
                    "x-ratelimit-reset-tokens: 20ms",
                    "x-request-id: req_5f1d2a");
            String message = "429 Too Many Requests: Rate limit reached for gpt-4o in organization org-abc on requests "
                    + "per min (RPM): Limit 10000, Used 10000, Requested 1. Please try again in 20ms. Visit "
                    + "https://platform.openai.com/account/rate-limits to learn more. "
                    + "(type: requests, code: rate_limit_exceeded)";

            assertThat(parse(failure, message)).contains(new RetryHint(20, "body:try again in"));
        }

        @Test
        void openAiTokenLimitReadsTheDelayNotTheNumbersOfTheLimit() {
            String message = "429 Too Many Requests: Rate limit reached for gpt-4 in organization org-abc on tokens "
                    + "per min (TPM): Limit 10000, Used 9990, Requested 500. Please try again in 3s. Visit "
                    + "https://platform.openai.com/account/rate-limits to learn more. "
                    + "(type: tokens, code: rate_limit_exceeded)";

            assertThat(parse(http(429), message)).contains(new RetryHint(3000, "body:try again in"));
        }

        @Test
        void openAiWithoutABodyHintWaitsForTheLaterOfTheRequestAndTokenResets() {
            ProviderFailure failure = http(429, "x-ratelimit-reset-requests: 6m0s", "x-ratelimit-reset-tokens: 20ms");

            assertThat(parse(failure, "429 Too Many Requests (no body)"))
                    .contains(new RetryHint(360_000, "x-ratelimit-reset-requests"));
        }

        @Test
        void anthropicRetryAfterSecondsWinOverTheResetTimestamps() {
            ProviderFailure failure = http(
                    429,
                    "retry-after: 3",
                    "anthropic-ratelimit-requests-limit: 50",
                    "anthropic-ratelimit-requests-remaining: 0",
                    "anthropic-ratelimit-requests-reset: 2026-12-01T10:00:27Z",
                    "anthropic-ratelimit-input-tokens-reset: 2026-12-01T10:00:30Z",
                    "request-id: req_011CV1");
            String message = "429 Too Many Requests: This request would exceed the rate limit for your organization "
                    + "(0b7c1e7d-aaaa-bbbb-cccc-123456789abc) of 50 input tokens per minute. For details, refer to: "
                    + "https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. "
                    + "Please reduce the prompt length or the maximum tokens requested, or try again later. "
                    + "(type: rate_limit_error)";

            assertThat(parse(failure, message)).contains(new RetryHint(3000, "retry-after"));
        }

        @Test
        void anthropicWithoutRetryAfterWaitsForTheLatestReset() {
            ProviderFailure failure = http(
                    429,
                    "anthropic-ratelimit-requests-reset: 2026-12-01T10:00:27Z",
                    "anthropic-ratelimit-tokens-reset: 2026-12-01T10:00:05Z",
                    "anthropic-ratelimit-input-tokens-reset: 2026-12-01T10:00:30.5Z",
                    "anthropic-ratelimit-output-tokens-reset: 2026-12-01T10:00:01Z");

            assertThat(parse(failure, "429 Too Many Requests: Rate limited (type: rate_limit_error)"))
                    .contains(new RetryHint(30_500, "anthropic-ratelimit-input-tokens-reset"));
        }

        @Test
        void anthropicOverloadedWithoutHintsHasNone() {
            ProviderFailure failure = http(529, "x-should-retry: true", "request-id: req_011CSHoEeqs5C35K2UUqR7Fy");

            assertThat(parse(failure, "529 Overloaded: Overloaded (type: overloaded_error)"))
                    .isEmpty();
        }

        @Test
        void geminiPreciseRetryInWinsOverTheRetryDelayRoundedDownToWholeSeconds() {
            String message = "429 Too Many Requests: You exceeded your current quota, please check your plan and "
                    + "billing details. For more information on this error, head to: "
                    + "https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: "
                    + "generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: "
                    + "gemini-2.5-flash\nPlease retry in 38.470252s. "
                    + "(type: RESOURCE_EXHAUSTED, code: 429, retryDelay: 38s)";

            assertThat(parse(http(429), message)).contains(new RetryHint(38_471, "body:retry in"));
        }

        @Test
        void geminiRawBodyQuotedInTheTextGivesTheLongerOfItsTwoHints() {
            String message = """
                    Upstream error: {"error": {"code": 429, "message": "Resource exhausted. Please retry in 47.4s.", \
                    "status": "RESOURCE_EXHAUSTED", "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", \
                    "retryDelay": "38s"}]}}""";

            assertThat(parse(null, message)).contains(new RetryHint(47_400, "body:retry in"));
        }

        @Test
        void geminiRetryDelayAloneIsRead() {
            String message = """
                    {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "details": [\
                    {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "38s"}]}}""";

            assertThat(parse(null, message)).contains(new RetryHint(38_000, "body:retryDelay"));
        }

        @Test
        void azureRetryAfterMsWinsOverRetryAfterAndTheText() {
            ProviderFailure failure = http(
                    429,
                    "retry-after: 6",
                    "retry-after-ms: 5800",
                    "x-ratelimit-remaining-requests: 119",
                    "x-ratelimit-remaining-tokens: 0",
                    "apim-request-id: 5c1a7e3f-1111-2222-3333-444455556666");
            String message = "429 Too Many Requests: Requests to the ChatCompletions_Create Operation under Azure "
                    + "OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing "
                    + "tier. Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease if you "
                    + "would like to further increase the default rate limit. (code: 429)";

            assertThat(parse(failure, message)).contains(new RetryHint(5800, "retry-after-ms"));
        }

        @Test
        void azureTextAloneReadsPleaseRetryAfterSeconds() {
            String message = "429 Too Many Requests: Requests to the Creates a completion for the chat message "
                    + "Operation under Azure OpenAI API version 2023-05-15 have exceeded call rate limit of your "
                    + "current OpenAI S0 pricing tier. Please retry after 2 seconds. Please go here: "
                    + "https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit. "
                    + "(code: 429)";

            assertThat(parse(http(429), message)).contains(new RetryHint(2000, "body:retry after"));
        }

        @Test
        void groqRetryAfterWinsOverThePreciseTextAndResetHeader() {
            ProviderFailure failure = http(429, "retry-after: 8", "x-ratelimit-reset-tokens: 7.725s");
            String message = "429 Too Many Requests: Rate limit reached for model `llama-3.3-70b-versatile` in "
                    + "organization `org_01jabc` service tier `on_demand` on tokens per minute (TPM): Limit 12000, "
                    + "Used 11200, Requested 2345. Please try again in 7.725s. "
                    + "(type: tokens, code: rate_limit_exceeded)";

            assertThat(parse(failure, message)).contains(new RetryHint(8000, "retry-after"));
        }

        @Test
        void openRouterResetInEpochMillisecondsIsReadRelativeToNow() {
            ProviderFailure failure = http(
                    429,
                    "x-ratelimit-limit: 20",
                    "x-ratelimit-remaining: 0",
                    "x-ratelimit-reset: " + (NOW_EPOCH_SECONDS * 1000 + 41_250));
            String message = "429 Too Many Requests: Provider returned error (upstream Google AI Studio: "
                    + "google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream. Please retry shortly, or "
                    + "add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations) "
                    + "(code: 429)";

            assertThat(parse(failure, message)).contains(new RetryHint(41_250, "x-ratelimit-reset"));
        }

        @Test
        void openRouterUpstreamRawGeminiBodyWithEscapedQuotes() {
            String message = "429 Too Many Requests: Provider returned error (upstream Google: {\\\"error\\\": "
                    + "{\\\"code\\\": 429, \\\"status\\\": \\\"RESOURCE_EXHAUSTED\\\", "
                    + "\\\"details\\\": [{\\\"@type\\\": \\\"type.googleapis.com/google.rpc.RetryInfo\\\", "
                    + "\\\"retryDelay\\\": \\\"12s\\\"}]}}) (code: 429)";

            assertThat(parse(http(429), message)).contains(new RetryHint(12_000, "body:retryDelay"));
        }
    }

    @Nested
    class Precedence {
        @Test
        void rateLimitResetHeadersOnAResponseThatWasNotRateLimitedAreNoWait() {
            ProviderFailure overloaded = http(
                    503,
                    "x-ratelimit-remaining-tokens: 9000000",
                    "x-ratelimit-reset-tokens: 6m0s",
                    "x-ratelimit-reset-requests: 20ms",
                    "anthropic-ratelimit-requests-reset: 2026-12-01T10:05:00Z",
                    "x-ratelimit-reset-ms: 4400");
            assertThat(parse(overloaded, "503 Service Unavailable: busy")).isEmpty();
            assertThat(parse(http(503, "retry-after: 2"), "busy"))
                    .hasValueSatisfying(h -> assertThat(h.delayMs()).isEqualTo(2000));
        }

        @Test
        void theSameResetHeadersOnA429AreAWait() {
            assertThat(parse(http(429, "x-ratelimit-reset-tokens: 6m0s"), "429 Too Many Requests"))
                    .hasValueSatisfying(h -> assertThat(h.delayMs()).isEqualTo(360_000));
        }

        /** Every source with a different wait, highest precedence first. */
        private static final List<Map.Entry<String, String>> LADDER = List.of(
                Map.entry("retry-after-ms", "1100"),
                Map.entry("retry-after", "2"),
                Map.entry("body", "Please try again in 3s."),
                Map.entry("x-ratelimit-reset-ms", "4400"),
                Map.entry("x-ratelimit-reset", "5"),
                Map.entry("x-ratelimit-reset-requests", "6s"),
                Map.entry("anthropic-ratelimit-requests-reset", "2026-12-01T10:00:07Z"));

        static Stream<Arguments> rungs() {
            return Stream.of(
                    Arguments.of(0, 1100L, "retry-after-ms"),
                    Arguments.of(1, 2000L, "retry-after"),
                    Arguments.of(2, 3000L, "body:try again in"),
                    Arguments.of(3, 4400L, "x-ratelimit-reset-ms"),
                    Arguments.of(4, 5000L, "x-ratelimit-reset"),
                    Arguments.of(5, 6000L, "x-ratelimit-reset-requests"),
                    Arguments.of(6, 7000L, "anthropic-ratelimit-requests-reset"));
        }

        @ParameterizedTest(name = "{2} wins over every later source")
        @MethodSource("rungs")
        void eachSourceWinsOverAllLaterOnes(int from, long expectedMs, String expectedSource) {
            Map<String, String> headers = new LinkedHashMap<>();
            String body = null;
            for (Map.Entry<String, String> rung : LADDER.subList(from, LADDER.size())) {
                if (rung.getKey().equals("body")) {
                    body = rung.getValue();
                } else {
                    headers.put(rung.getKey(), rung.getValue());
                }
            }

            assertThat(parse(headers(headers), body)).contains(new RetryHint(expectedMs, expectedSource));
        }

        @Test
        void aShorterHeaderStillBeatsALongerBodyHint() {
            assertThat(parse(http(429, "retry-after: 1"), "Please try again in 2min"))
                    .contains(new RetryHint(1000, "retry-after"));
        }

        @Test
        void aWaitOfZeroIsAHintAndEndsTheSearch() {
            assertThat(parse(http(429, "retry-after: 0"), "Please try again in 3s"))
                    .contains(new RetryHint(0, "retry-after"));
        }

        @Test
        void anUnparseableSourceFallsThroughToTheNextOne() {
            ProviderFailure failure = http(
                    429,
                    "retry-after-ms: soon",
                    "retry-after: later",
                    "x-ratelimit-reset-ms: NaN",
                    "x-ratelimit-reset: -5",
                    "x-ratelimit-reset-requests: 1e999",
                    "x-ratelimit-reset-tokens: ",
                    "anthropic-ratelimit-requests-reset: 2026-12-01T10:00:09Z");

            assertThat(parse(failure, "Please try again in a moment"))
                    .contains(new RetryHint(9000, "anthropic-ratelimit-requests-reset"));
        }
    }

    @Nested
    class Headers {
        @ParameterizedTest
        @CsvSource({"250, 250", "1500.5, 1501", "0.1, 1", "0, 0", "' 6000 ', 6000"})
        void retryAfterMsIsMillisecondsRoundedUp(String value, long expectedMs) {
            assertThat(header("retry-after-ms", value)).isEqualTo(new RetryHint(expectedMs, "retry-after-ms"));
        }

        @ParameterizedTest
        @CsvSource({"3, 3000", "0.5, 500", "27, 27000", "1.0001, 1001", "0, 0"})
        void retryAfterIsSeconds(String value, long expectedMs) {
            assertThat(header("retry-after", value)).isEqualTo(new RetryHint(expectedMs, "retry-after"));
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "Tue, 01 Dec 2026 10:00:42 GMT | 42000",
                    "Tue, 1 Dec 2026 10:01:00 GMT  | 60000",
                    "tue, 01 dec 2026 10:00:42 gmt | 42000",
                    "Fri, 01 Dec 2026 10:00:42 GMT | 42000",
                    "01 Dec 2026 10:00:42 GMT      | 42000",
                    "Tue, 01 Dec 2026 11:00:42 +0100 | 42000"
                })
        void retryAfterHttpDateIsTheTimeUntilThen(String value, long expectedMs) {
            assertThat(header("retry-after", value)).isEqualTo(new RetryHint(expectedMs, "retry-after"));
        }

        @Test
        void retryAfterHttpDateInThePastIsNoWait() {
            assertThat(header("retry-after", "Wed, 21 Oct 2026 07:28:00 GMT"))
                    .isEqualTo(new RetryHint(0, "retry-after"));
        }

        @Test
        void aRepeatedHeaderJoinedWithCommasGivesItsLongestValue() {
            assertThat(header("retry-after", "6, 8")).isEqualTo(new RetryHint(8000, "retry-after"));
            assertThat(header("x-ratelimit-reset-tokens", "1s, 250ms"))
                    .isEqualTo(new RetryHint(1000, "x-ratelimit-reset-tokens"));
            assertThat(parse(http(429, "retry-after: 6, soon", "retry-after-ms: 6000, "), null))
                    .isEmpty();
        }

        @ParameterizedTest
        @CsvSource({"12.5, 13", "0, 0"})
        void xRateLimitResetMsIsMilliseconds(String value, long expectedMs) {
            assertThat(header("x-ratelimit-reset-ms", value))
                    .isEqualTo(new RetryHint(expectedMs, "x-ratelimit-reset-ms"));
        }

        static Stream<Arguments> rateLimitResets() {
            return Stream.of(
                    Arguments.of("30", 30_000L),
                    Arguments.of("0.5", 500L),
                    Arguments.of("86400", 86_400_000L),
                    Arguments.of(String.valueOf(NOW_EPOCH_SECONDS + 90), 90_000L),
                    Arguments.of((NOW_EPOCH_SECONDS + 90) + ".25", 90_250L),
                    Arguments.of(String.valueOf(NOW_EPOCH_SECONDS * 1000 + 1500), 1500L),
                    Arguments.of(String.valueOf(NOW_EPOCH_SECONDS - 60), 0L),
                    Arguments.of(String.valueOf(NOW_EPOCH_SECONDS * 1000 - 60_000), 0L),
                    Arguments.of("999999999", SEVEN_DAYS_MS),
                    Arguments.of("1000000000", 0L),
                    Arguments.of("999999999999", SEVEN_DAYS_MS),
                    Arguments.of("1000000000000", 0L),
                    Arguments.of("2m30s", 150_000L));
        }

        @ParameterizedTest(name = "x-ratelimit-reset: {0} → {1} ms")
        @MethodSource("rateLimitResets")
        void xRateLimitResetIsEpochMillisEpochSecondsOrSecondsFromNow(String value, long expectedMs) {
            assertThat(header("x-ratelimit-reset", value)).isEqualTo(new RetryHint(expectedMs, "x-ratelimit-reset"));
        }

        @ParameterizedTest
        @CsvSource({
            "1s, 1000",
            "6m0s, 360000",
            "20ms, 20",
            "1h2m3.5s, 3723500",
            "0.5s, 500",
            "7.725s, 7725",
            "7.725, 7725"
        })
        void openAiResetHeadersAreDurations(String value, long expectedMs) {
            assertThat(header("x-ratelimit-reset-requests", value))
                    .isEqualTo(new RetryHint(expectedMs, "x-ratelimit-reset-requests"));
            assertThat(header("x-ratelimit-reset-tokens", value))
                    .isEqualTo(new RetryHint(expectedMs, "x-ratelimit-reset-tokens"));
        }

        @Test
        void openAiResetHeadersTakeTheLongerOfRequestsAndTokens() {
            assertThat(parse(http(429, "x-ratelimit-reset-requests: 1s", "x-ratelimit-reset-tokens: 1m30.5s"), null))
                    .contains(new RetryHint(90_500, "x-ratelimit-reset-tokens"));
        }

        @Test
        void openAiResetHeadersUseTheOtherWhenOneIsUnparseable() {
            assertThat(parse(http(429, "x-ratelimit-reset-requests: soon", "x-ratelimit-reset-tokens: 20ms"), null))
                    .contains(new RetryHint(20, "x-ratelimit-reset-tokens"));
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "2026-12-01T10:00:30Z         | 30000",
                    "2026-12-01T10:00:30.123456Z  | 30124",
                    "2026-12-01T12:00:30+02:00    | 30000",
                    "2026-12-01T09:00:30.5-01:00  | 30500",
                    "2026-12-01t10:00:30z         | 30000",
                    "2026-12-01 10:00:30Z         | 30000",
                    "2026-12-01T09:59:00Z         | 0"
                })
        void anthropicResetsAreRfc3339TimestampsFromNow(String value, long expectedMs) {
            assertThat(header("anthropic-ratelimit-tokens-reset", value))
                    .isEqualTo(new RetryHint(expectedMs, "anthropic-ratelimit-tokens-reset"));
        }

        @Test
        void anthropicResetWithoutOffsetIsIgnored() {
            assertThat(parse(http(429, "anthropic-ratelimit-requests-reset: 2026-12-01T10:00:30"), null))
                    .isEmpty();
        }
    }

    @Nested
    class Text {
        @ParameterizedTest(name = "\"{0}\" → {1} ms from {2}")
        @CsvSource(
                delimiter = '|',
                value = {
                    "Please retry in 47.4s.                          | 47400   | body:retry in",
                    "retry in 1.2ms                                   | 2       | body:retry in",
                    "Please retry in 38.470252s.                      | 38471   | body:retry in",
                    "\"retryDelay\": \"38s\"                          | 38000   | body:retryDelay",
                    "(type: RESOURCE_EXHAUSTED, retryDelay: 38s)      | 38000   | body:retryDelay",
                    "try again in 20ms                                | 20      | body:try again in",
                    "Please try again in 3s.                          | 3000    | body:try again in",
                    "try again in 2min                                | 120000  | body:try again in",
                    "try again in 1h                                  | 3600000 | body:try again in",
                    "Try again in 1.5 seconds                         | 1500    | body:try again in",
                    "You can try again in 30 minutes.                 | 1800000 | body:try again in",
                    "Please try again in 6m0s.                        | 360000  | body:try again in",
                    "Please try again in 1m30.5s.                     | 90500   | body:try again in",
                    "Please try again in 820ms.                       | 820     | body:try again in",
                    "Try again in 2 hours 1 minute.                   | 7260000 | body:try again in",
                    "try again in 1 hour and 30 minutes               | 5400000 | body:try again in",
                    "try again in ~5 min                              | 300000  | body:try again in",
                    "Please retry again in 4s                         | 4000    | body:try again in",
                    "Your limit will reset after 1h2m3s               | 3723000 | body:reset after",
                    "Quota resets in 45 seconds                       | 45000   | body:reset in",
                    "Please retry after 6 seconds.                    | 6000    | body:retry after",
                    "Rate limit exceeded. Retry after 6 seconds       | 6000    | body:retry after",
                    "PLEASE TRY AGAIN IN 2S                           | 2000    | body:try again in"
                })
        void phrasesOfProvidersAreRead(String text, long expectedMs, String expectedSource) {
            assertThat(parse(null, text)).contains(new RetryHint(expectedMs, expectedSource));
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "429 Too Many Requests: Rate limit reached for gpt-4 on tokens per min (TPM): Limit 10000, Used 9990, "
                            + "Requested 500. (type: tokens, code: rate_limit_exceeded)",
                    "400 Bad Request: This model's maximum context length is 128000 tokens. However, your messages "
                            + "resulted in 130532 tokens. (code: context_length_exceeded)",
                    "503 Service Unavailable: The model is overloaded. Please try again later. (code: 503)",
                    "Please retry shortly, or add your own key",
                    "retry in a moment",
                    "try again in 5 requests",
                    "try again in 3 sheep",
                    "Request req_30s failed after 20s",
                    "upstream connect error or disconnect/reset before headers. reset reason: connection termination",
                    "Timeout after 30 seconds",
                    "Connection reset after 30s of inactivity",
                    "stream reset in 2s by the proxy",
                    "retry in -5s",
                    "retry in 1e3s",
                    "retry in 99999999999999999999s",
                    "Stream stalled: no data for 30000 ms (timeouts.idleMs); 12 characters had arrived"
                })
        void numbersThatAreNotDelaysAreNotHints(String text) {
            assertThat(parse(http(429), text)).isEmpty();
        }

        @Test
        void theLongestOfSeveralPhrasesWins() {
            assertThat(parse(null, "try again in 20ms; your quota resets in 2min; retry in 3s"))
                    .contains(new RetryHint(120_000, "body:reset in"));
        }

        @Test
        void equalPhrasesReportTheFirstInTheText() {
            assertThat(parse(null, "retryDelay: 38s. Please retry in 38s."))
                    .contains(new RetryHint(38_000, "body:retryDelay"));
        }
    }

    @Nested
    class Limits {
        @Test
        void aWaitOfYearsIsCutToSevenDays() {
            assertThat(header("retry-after", "31536000")).isEqualTo(new RetryHint(SEVEN_DAYS_MS, "retry-after"));
            assertThat(parse(null, "try again in 400 days"))
                    .contains(new RetryHint(SEVEN_DAYS_MS, "body:try again in"));
            assertThat(header("anthropic-ratelimit-requests-reset", "+999999999-12-31T23:59:59Z"))
                    .isEqualTo(new RetryHint(SEVEN_DAYS_MS, "anthropic-ratelimit-requests-reset"));
            assertThat(header("retry-after", "Fri, 31 Dec 9999 23:59:59 GMT"))
                    .isEqualTo(new RetryHint(SEVEN_DAYS_MS, "retry-after"));
            assertThat(RetryHints.MAX_DELAY_MS).isEqualTo(SEVEN_DAYS_MS);
        }

        @Test
        void sevenDaysExactlyIsKept() {
            assertThat(header("retry-after-ms", String.valueOf(SEVEN_DAYS_MS)).delayMs())
                    .isEqualTo(SEVEN_DAYS_MS);
        }

        static Stream<String> headerNames() {
            return Stream.of(
                    "retry-after-ms",
                    "retry-after",
                    "x-ratelimit-reset-ms",
                    "x-ratelimit-reset",
                    "x-ratelimit-reset-requests",
                    "x-ratelimit-reset-tokens");
        }

        static Stream<Arguments> garbage() {
            List<String> values = List.of(
                    "soon",
                    "-5",
                    "NaN",
                    "Infinity",
                    "1e999",
                    "1E3",
                    "",
                    "   ",
                    "0x10",
                    "+5",
                    "5 apples",
                    "99999999999999999999",
                    "1.2.3",
                    ".",
                    "∞",
                    "٣",
                    "3\u0000",
                    "null");
            return headerNames().flatMap(name -> values.stream().map(value -> Arguments.of(name, value)));
        }

        @ParameterizedTest(name = "{0}: \"{1}\"")
        @MethodSource("garbage")
        void garbageIsIgnoredAndTheNextSourceUsed(String name, String value) {
            Map<String, String> headers =
                    Map.of(name, value, "anthropic-ratelimit-output-tokens-reset", "2026-12-01T10:00:42Z");

            assertThat(parse(headers(headers), null))
                    .contains(new RetryHint(42_000, "anthropic-ratelimit-output-tokens-reset"));
        }

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "soon",
                    "",
                    "-5",
                    "2026-13-01T10:00:00Z",
                    "2026-12-01T25:00:00Z",
                    "1796119230",
                    "NaN",
                    "2026-12-01T10:00:30+25:00"
                })
        void garbageInTheLastSourceMeansNoHint(String value) {
            assertThat(parse(http(429, "anthropic-ratelimit-requests-reset: " + value), null))
                    .isEmpty();
        }

        @Test
        void nothingToReadIsNoHint() {
            assertThat(parse(null, null)).isEmpty();
            assertThat(parse(ProviderFailure.of(FailureKind.TRANSPORT), null)).isEmpty();
            assertThat(parse(null, "")).isEmpty();
            assertThat(parse(http(429, "x-request-id: req_1", "x-should-retry: true"), "429 Too Many Requests"))
                    .isEmpty();
        }

        @Test
        void headersOnlyWithANullMessageAndTextOnlyWithANullFailureAreRead() {
            assertThat(parse(http(429, "retry-after: 3"), null)).contains(new RetryHint(3000, "retry-after"));
            assertThat(parse(null, "try again in 3s")).contains(new RetryHint(3000, "body:try again in"));
        }

        @Test
        @Timeout(10)
        void hugeInputsEndQuicklyWithoutError() {
            String longRun = "retry in " + "1s".repeat(200_000);
            String digits = "try again in " + "9".repeat(1_000_000) + "s";
            String phrases = "Please try again in 3s. ".repeat(50_000);

            assertThat(parse(http(429, "retry-after: " + "9".repeat(100_000)), longRun))
                    .contains(new RetryHint(8000, "body:retry in"));
            assertThat(parse(null, digits)).isEmpty();
            assertThat(parse(null, phrases)).contains(new RetryHint(3000, "body:try again in"));
        }
    }

    @Nested
    class Fuzzing {
        private static final String[] TOKENS = {
            "0",
            "1",
            "5",
            "9",
            "38",
            "47.4",
            "1500.5",
            "999999999999999999999",
            ".",
            "-",
            "+",
            "e",
            "E",
            "s",
            "ms",
            "m",
            "h",
            "d",
            "min",
            "seconds",
            "µs",
            "ns",
            " ",
            "  ",
            ",",
            ":",
            "T",
            "Z",
            "z",
            "GMT",
            "Wed, ",
            "21 Oct 2026 ",
            "07:28:00",
            "2026-12-01",
            "T10:00:30",
            "+02:00",
            "retry in ",
            "try again in ",
            "retry after ",
            "reset after ",
            "resets in ",
            "retryDelay",
            "\"",
            "\\",
            "~",
            "and ",
            "NaN",
            "Infinity",
            "\n",
            "\t",
            "\u0000",
            "٣",
            "𝟗",
            "(",
            ")",
            "[",
            "{",
            "}",
            "resets at ",
            "try again at ",
            "9:30 AM",
            "5pm",
            "12am",
            "Jan 5th, 2026 ",
            "Thu, Dec 3 at ",
            "(Europe/Berlin)",
            "(Etc/GMT+5)",
            "GMT-3",
            "PST",
            "tomorrow at ",
            "limit reached|",
            "1796119200",
            "\"resets_at\":",
            "10 de jul. de "
        };
        private static final String[] NAMES = {
            "retry-after-ms",
            "retry-after",
            "x-ratelimit-reset-ms",
            "x-ratelimit-reset",
            "x-ratelimit-reset-requests",
            "x-ratelimit-reset-tokens",
            "anthropic-ratelimit-requests-reset",
            "anthropic-ratelimit-tokens-reset",
            "anthropic-ratelimit-input-tokens-reset",
            "anthropic-ratelimit-output-tokens-reset"
        };

        private static String randomText(Random random) {
            StringBuilder sb = new StringBuilder();
            int tokens = random.nextInt(12);
            for (int i = 0; i < tokens; i++) {
                if (random.nextInt(8) == 0) {
                    sb.appendCodePoint(random.nextInt(0x2FFFF));
                } else {
                    sb.append(TOKENS[random.nextInt(TOKENS.length)]);
                }
            }
            return sb.toString();
        }

        @Test
        void randomHeadersAndTextsNeverThrowAndStayWithinBounds() {
            long seed = 20_261_201L;
            Random random = new Random(seed);
            List<Clock> clocks = new ArrayList<>(List.of(
                    Clock.fixed(NOW, ZoneOffset.UTC),
                    Clock.fixed(Instant.EPOCH, ZoneOffset.UTC),
                    Clock.fixed(Instant.MAX, ZoneOffset.UTC),
                    Clock.fixed(Instant.MIN, ZoneOffset.UTC)));
            for (int i = 0; i < 5000; i++) {
                Map<String, String> headers = new LinkedHashMap<>();
                int count = random.nextInt(4);
                for (int h = 0; h < count; h++) {
                    headers.put(NAMES[random.nextInt(NAMES.length)], randomText(random));
                }
                ProviderFailure failure = random.nextInt(10) == 0 ? null : headers(headers);
                String text = random.nextInt(10) == 0 ? null : randomText(random);
                RetryHints subject = new RetryHints(clocks.get(random.nextInt(clocks.size())));
                String input = "seed " + seed + ", case " + i + ": " + headers + " / " + text;

                assertThatCode(() -> subject.parse(failure, text)).as(input).doesNotThrowAnyException();
                subject.parse(failure, text)
                        .ifPresent(hint -> assertThat(hint.delayMs()).as(input).isBetween(0L, RetryHints.MAX_DELAY_MS));
            }
        }
    }
}
