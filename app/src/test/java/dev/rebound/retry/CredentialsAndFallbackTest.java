package dev.rebound.retry;

import static dev.rebound.retry.EngineHarness.http;
import static dev.rebound.retry.EngineHarness.ok;
import static dev.rebound.retry.EngineHarness.overloaded;
import static dev.rebound.retry.EngineHarness.refusal;
import static dev.rebound.retry.PoolHarness.CLAUDE;
import static dev.rebound.retry.PoolHarness.GPT;
import static dev.rebound.retry.PoolHarness.LLAMA;
import static dev.rebound.retry.PoolHarness.defaultChain;
import static dev.rebound.retry.PoolHarness.retry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.CredentialSwitched;
import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryDecidedBy;
import dev.rebound.event.RetryEndReason;
import dev.rebound.event.RetryFallbackApplied;
import dev.rebound.event.RetryFallbackReverted;
import dev.rebound.event.RetryFallbackSucceeded;
import dev.rebound.expiry.ExpiryStore;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.RetrySettings.RevertPolicy;
import dev.rebound.transcript.AssistantMessage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** §5 (usage limits and credentials) and §6 (model fallback) on a real session, with an injected clock. */
class CredentialsAndFallbackTest {
    private static final long T0 = EngineHarness.START.toEpochMilli();

    @TempDir
    Path dir;

    private PoolHarness h;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    private static Function<ProviderRequest, AssistantMessage> usageLimit(String retryAfterSeconds) {
        return http(
                429,
                "Too Many Requests",
                "You've hit your usage limit for this plan.",
                null,
                null,
                retryAfterSeconds == null ? Map.of() : Map.of("retry-after", retryAfterSeconds));
    }

    private static Function<ProviderRequest, AssistantMessage> insufficientQuota() {
        return http(
                429,
                "Too Many Requests",
                "You exceeded your current quota, please check your plan and billing " + "details.",
                "insufficient_quota",
                "insufficient_quota",
                Map.of());
    }

    @Test
    void aUsageLimitOnTheFirstKeySwitchesToTheSecondAtOnce() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.script(usageLimit("1800"), ok("from b"));
        h.prompt("hi");

        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "anthropic/claude-sonnet-4-5@b");
        assertThat(h.all(CredentialSwitched.class)).containsExactly(new CredentialSwitched("anthropic", "a", "b"));
        assertThat(h.timer.delays()).containsExactly(0L);
        assertThat(h.all(AutoRetryStart.class).getFirst().errorKind()).isEqualTo(ErrorKind.USAGE_LIMIT);
        assertThat(h.pool.blockedUntil("anthropic", "a")).hasValue(T0 + 1_800_000);
        assertThat(h.types()).containsSubsequence("agent_end", "credential_switched", "auto_retry_start");
        assertThat(h.all(RetryChainEnd.class).getFirst().attempts())
                .extracting(RetryAttempt::decidedBy)
                .containsExactly(RetryDecidedBy.CREDENTIAL_SWITCH);
    }

    @Test
    void theSessionSticksToTheSecondKeyAfterwardsAndAnExpiredBlockIsForgotten() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.script(usageLimit("60"), ok("b"), ok("still b"));
        h.prompt("one");
        h.prompt("two");
        assertThat(h.targets()).endsWith("anthropic/claude-sonnet-4-5@b");
        h.clock.advance(60_000);
        assertThat(h.pool.isBlocked("anthropic", "a")).isFalse();
    }

    @Test
    void aRestartStillSkipsTheBlockedKeyUntilItsBlockExpires() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.script(usageLimit("1800"), ok("b"));
        h.prompt("hi");
        h.close();

        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.clock.advance(60_000);
        h.script(ok("restarted on b"));
        h.prompt("after restart");
        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@b");
        h.clock.advance(1_800_000);
        h.script(ok("a is back for a new session's first pick"));
        assertThat(h.pool.isBlocked("anthropic", "a")).isFalse();
    }

    @Test
    void withEveryKeyBlockedTheWaitIsTheEarlierOfTheHintAndTheFirstUnblockPlusOneSecond() throws Exception {
        h = new PoolHarness(dir, retry(0, 0, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.blocks.put("anthropic/b", T0 + 120_000, "usage_limit");
        h.script(usageLimit("1800"), ok("b again"));
        h.prompt("hi");

        assertThat(h.timer.delays()).containsExactly(121_000L);
        assertThat(h.all(CredentialSwitched.class)).isEmpty();
        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "anthropic/claude-sonnet-4-5@b");
    }

    @Test
    void withEveryKeyBlockedALongWaitFailsFast() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.blocks.put("anthropic/b", T0 + 900_000, "usage_limit");
        h.script(usageLimit("1800"));
        h.prompt("hi");
        assertThat(h.timer.delays()).isEmpty();
        AutoRetryEnd end = h.all(AutoRetryEnd.class).getFirst();
        assertThat(end.reason()).isEqualTo(RetryEndReason.MAX_DELAY_EXCEEDED);
        assertThat(end.finalError())
                .startsWith("Rebound would wait 901000ms for this usage_limit (the provider asked "
                        + "for 1800000ms), exceeds retry.maxDelayMs (300000ms)");
    }

    @Test
    void creditExhaustionWithOneKeyAndNoChainIsTerminalAfterOneRequest() throws Exception {
        h = new PoolHarness(dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.oneKey());
        h.script(insufficientQuota());
        h.prompt("hi");
        assertThat(h.requests).hasSize(1);
        assertThat(h.timer.delays()).isEmpty();
        assertThat(h.types()).doesNotContain("auto_retry_start");
    }

    @Test
    void creditExhaustionSwitchesToAnotherKeyWithoutWaiting() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.script(insufficientQuota(), ok("paid by b"));
        h.prompt("hi");
        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "anthropic/claude-sonnet-4-5@b");
        assertThat(h.timer.delays()).containsExactly(0L);
    }

    @Test
    void theLastKeyOfAnExhaustedChainIsBlockedTooSoTheNextPromptDoesNotSendItAgain() throws Exception {
        RetrySettings twoRetries = PoolHarness.retry(true, 2);
        h = new PoolHarness(
                dir,
                twoRetries,
                "{ \"anthropic\": [ { \"label\": \"a\", \"apiKey\": \"sk-ant-aaaaaaaaaaaa\" },"
                        + " { \"label\": \"b\", \"apiKey\": \"sk-ant-bbbbbbbbbbbb\" },"
                        + " { \"label\": \"c\", \"apiKey\": \"sk-ant-cccccccccccc\" },"
                        + " { \"label\": \"d\", \"apiKey\": \"sk-ant-dddddddddddd\" } ] }");
        h.script(insufficientQuota(), insufficientQuota(), insufficientQuota(), ok("paid by d"));

        h.prompt("first");
        assertThat(h.all(dev.rebound.event.AutoRetryEnd.class))
                .singleElement()
                .satisfies(end -> assertThat(end.reason()).isEqualTo(dev.rebound.event.RetryEndReason.EXHAUSTED));
        h.prompt("second");

        assertThat(h.targets()).extracting(t -> t.substring(t.indexOf('@') + 1)).containsExactly("a", "b", "c", "d");
        assertThat(h.blocks.active()).containsKeys("anthropic/a", "anthropic/b", "anthropic/c");
    }

    @Test
    void aUsageLimitWithRetriesOffStillBlocksItsKey() throws Exception {
        RetrySettings off = PoolHarness.retry(false, RetrySettings.DEFAULTS.maxRetries());
        h = new PoolHarness(dir, off, PoolHarness.twoKeys());
        h.script(usageLimit("1800"), ok("from b"));

        h.prompt("first");
        h.prompt("second");

        assertThat(h.targets()).extracting(t -> t.substring(t.indexOf('@') + 1)).containsExactly("a", "b");
        assertThat(h.blocks.get("anthropic/a")).isPresent();
    }

    @Test
    void aUsageLimitCanNeverLoop() throws Exception {
        h = new PoolHarness(dir, retry(0, 0, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        for (int i = 0; i < 11; i++) {
            h.script(usageLimit("600"));
        }
        h.prompt("hi");
        assertThat(h.requests).hasSize(11);
        for (int i = 0; i < h.requests.size(); i++) {
            String label = h.requests.get(i).credential().label();
            long sentAt = h.requestTimes.get(i);
            for (int j = 0; j < i; j++) {
                if (h.requests.get(j).credential().label().equals(label)) {
                    assertThat(sentAt - h.requestTimes.get(j))
                            .as("request %d reused key %s while it was blocked", i, label)
                            .isGreaterThanOrEqualTo(600_000);
                }
            }
            if (i >= 2) {
                assertThat(sentAt - h.requestTimes.get(i - 2))
                        .as("two keys: at most two requests per block")
                        .isGreaterThanOrEqualTo(600_000);
            }
        }
        assertThat(h.all(AutoRetryEnd.class).getFirst().reason()).isEqualTo(RetryEndReason.EXHAUSTED);
    }

    @Test
    void anOverloadOnThePrimaryFallsBackAtOnceAndConfirmsOnSuccess() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, defaultChain()), PoolHarness.oneKey());
        h.script(overloaded(), ok("from gpt"));
        h.prompt("hi");

        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "openai/gpt-4.1-mini@-");
        assertThat(h.timer.delays()).containsExactly(0L);
        assertThat(h.all(RetryFallbackApplied.class))
                .containsExactly(new RetryFallbackApplied(CLAUDE.selector(), GPT.selector(), "default"));
        assertThat(h.all(RetryFallbackSucceeded.class))
                .containsExactly(new RetryFallbackSucceeded(GPT.selector(), "default"));
        assertThat(h.types())
                .containsSubsequence(
                        "retry_fallback_applied",
                        "model_changed",
                        "auto_retry_start",
                        "retry_fallback_succeeded",
                        "auto_retry_end",
                        "retry_chain_end",
                        "agent_end");
        assertThat(h.session.history())
                .filteredOn(e -> e instanceof ModelChangeEntry m && m.role().equals("fallback") && m.to().equals(GPT))
                .hasSize(1);
        assertThat(h.session.fallback()).hasValueSatisfying(f -> {
            assertThat(f.primary()).isEqualTo(CLAUDE.selector());
            assertThat(f.current()).isEqualTo(GPT.selector());
            assertThat(f.revertAt()).isEqualTo(T0 + 300_000);
        });
        assertThat(h.all(RetryChainEnd.class).getFirst().attempts())
                .extracting(RetryAttempt::model, RetryAttempt::decidedBy)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(CLAUDE.selector(), RetryDecidedBy.MODEL_FALLBACK));
    }

    @Test
    void afterTheCooldownTheNextPromptGoesBackToThePrimary() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, defaultChain()), PoolHarness.oneKey());
        h.script(overloaded(), ok("gpt"), ok("gpt again"), ok("claude"));
        h.prompt("one");
        h.clock.advance(60_000);
        h.prompt("two, still cooling down");
        h.clock.advance(240_000);
        h.prompt("three");

        assertThat(h.targets())
                .containsExactly(
                        "anthropic/claude-sonnet-4-5@a",
                        "openai/gpt-4.1-mini@-",
                        "openai/gpt-4.1-mini@-",
                        "anthropic/claude-sonnet-4-5@a");
        assertThat(h.all(RetryFallbackReverted.class))
                .containsExactly(new RetryFallbackReverted(GPT.selector(), CLAUDE.selector()));
        assertThat(h.types()
                        .subList(
                                h.types().lastIndexOf("retry_fallback_reverted"),
                                h.types().size()))
                .startsWith("retry_fallback_reverted", "model_changed", "agent_start");
        assertThat(h.session.fallback()).isEmpty();
    }

    @Test
    void underNeverTheFallbackStaysUntilTheUserPicksAModel() throws Exception {
        h = new PoolHarness(dir, retry(300_000, 600_000, RevertPolicy.NEVER, defaultChain()), PoolHarness.oneKey());
        h.script(overloaded(), ok("gpt"), ok("gpt hours later"), ok("llama"));
        h.prompt("one");
        h.clock.advance(3_600_000);
        h.prompt("two");
        assertThat(h.targets().get(2)).isEqualTo("openai/gpt-4.1-mini@-");
        assertThat(h.session.fallback())
                .hasValueSatisfying(f -> assertThat(f.revertAt()).isNull());

        h.session.setModel(LLAMA);
        assertThat(h.session.fallback()).isEmpty();
        h.prompt("three");
        assertThat(h.targets().get(3)).isEqualTo("ollama/llama3.2@-");
        assertThat(h.all(RetryFallbackReverted.class)).isEmpty();
    }

    @Test
    void aManualModelChoiceClearsTheFallbackAndItsRevert() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, defaultChain()), PoolHarness.oneKey());
        h.script(overloaded(), ok("gpt"), ok("gpt by choice"));
        h.prompt("one");
        h.session.setModel(GPT);
        h.clock.advance(600_000);
        h.prompt("two");
        assertThat(h.targets().get(2)).isEqualTo("openai/gpt-4.1-mini@-");
        assertThat(h.all(RetryFallbackReverted.class)).isEmpty();
    }

    @Test
    void aRefusalFallsBackWithoutCoolingDownAndIsPinnedForRefusalPinMs() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, defaultChain()), PoolHarness.oneKey());
        h.script(refusal(), ok("gpt answers"), ok("pinned to gpt"), ok("claude again"));
        h.prompt("one");
        assertThat(h.all(AutoRetryStart.class))
                .extracting(AutoRetryStart::errorKind)
                .containsExactly(ErrorKind.REFUSAL);
        assertThat(h.cooldownStore.get(CLAUDE.selector()))
                .as("refusals cool nothing down")
                .isEmpty();

        h.clock.advance(RetrySettings.DEFAULTS.refusalPinMs() - 1);
        h.prompt("two");
        h.clock.advance(1);
        h.prompt("three");
        assertThat(h.targets())
                .containsExactly(
                        "anthropic/claude-sonnet-4-5@a",
                        "openai/gpt-4.1-mini@-",
                        "openai/gpt-4.1-mini@-",
                        "anthropic/claude-sonnet-4-5@a");
    }

    @Test
    void aDeadFallbackMovesToTheNextEntryAndTheBudgetStopsTheChainCleanly() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 20_000, RevertPolicy.COOLDOWN_EXPIRY, defaultChain()), PoolHarness.oneKey());
        h.script(overloaded(), overloaded(), r -> {
            h.clock.advance(25_000);
            return overloaded().apply(r);
        });
        h.prompt("hi");

        assertThat(h.targets())
                .containsExactly("anthropic/claude-sonnet-4-5@a", "openai/gpt-4.1-mini@-", "ollama/llama3.2@-");
        assertThat(h.all(RetryFallbackApplied.class))
                .extracting(RetryFallbackApplied::to)
                .containsExactly(GPT.selector(), LLAMA.selector());
        assertThat(h.all(AutoRetryEnd.class)).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo(RetryEndReason.ELAPSED_BUDGET_EXCEEDED);
            assertThat(e.attempt()).isEqualTo(2);
        });
        assertThat(h.types()).last().isEqualTo("agent_end");
    }

    @Test
    void aChainNamingAnUnknownModelSkipsIt() throws Exception {
        h = new PoolHarness(
                dir,
                retry(
                        300_000,
                        600_000,
                        RevertPolicy.COOLDOWN_EXPIRY,
                        Map.of("default", List.of("openai/gpt-9-imaginary", "not a selector", LLAMA.selector()))),
                PoolHarness.oneKey());
        h.script(overloaded(), ok("llama"));
        h.prompt("hi");
        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "ollama/llama3.2@-");
    }

    @Test
    void aFallbackFailingAfterThePrimaryCooledDownRevertsForTheScheduledRetry() throws Exception {
        h = new PoolHarness(
                dir,
                retry(300_000, 0, RevertPolicy.COOLDOWN_EXPIRY, Map.of("default", List.of(GPT.selector()))),
                PoolHarness.oneKey());
        h.script(
                http(529, "Overloaded", "Overloaded", "overloaded_error", null, Map.of("retry-after", "10")),
                ok("gpt"),
                r -> {
                    h.clock.advance(20_000);
                    return http(503, "Service Unavailable", "busy", null, null, Map.of("x-should-retry", "true"))
                            .apply(r);
                },
                ok("claude"));
        h.prompt("one");
        h.prompt("two");
        assertThat(h.targets())
                .containsExactly(
                        "anthropic/claude-sonnet-4-5@a",
                        "openai/gpt-4.1-mini@-",
                        "openai/gpt-4.1-mini@-",
                        "anthropic/claude-sonnet-4-5@a");
        assertThat(h.all(RetryFallbackReverted.class)).hasSize(1);
    }

    @Test
    void twoModelsThatBothRefuseNeverPingPong() throws Exception {
        h = new PoolHarness(
                dir,
                retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of("default", List.of(GPT.selector()))),
                PoolHarness.oneKey());
        for (int i = 0; i < 5; i++) {
            h.script(refusal());
        }
        h.prompt("hi");
        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "openai/gpt-4.1-mini@-");
        assertThat(h.all(RetryFallbackReverted.class)).isEmpty();
    }

    @Test
    void twoOverloadedModelsWithZeroHintsNeverPingPongWithoutBackoff() throws Exception {
        h = new PoolHarness(
                dir,
                retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of("default", List.of(GPT.selector()))),
                PoolHarness.oneKey());
        Function<ProviderRequest, AssistantMessage> zero =
                http(529, "Overloaded", "Overloaded", "overloaded_error", null, Map.of("retry-after", "0"));
        h.script(zero, zero, zero, ok("finally"));
        h.prompt("hi");
        assertThat(h.targets())
                .containsExactly(
                        "anthropic/claude-sonnet-4-5@a",
                        "openai/gpt-4.1-mini@-",
                        "openai/gpt-4.1-mini@-",
                        "openai/gpt-4.1-mini@-");
        assertThat(h.timer.delays().getFirst()).isZero();
        assertThat(h.timer.delays().subList(1, h.timer.delays().size()))
                .allSatisfy(d -> assertThat(d).isPositive());
    }

    @Test
    void aPinnedFallbackThatFailsMovesOnWithoutReturningToTheRefusingModel() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, defaultChain()), PoolHarness.oneKey());
        h.script(refusal(), ok("gpt"), overloaded(), ok("llama"));
        h.prompt("one");
        h.prompt("two");
        assertThat(h.targets())
                .containsExactly(
                        "anthropic/claude-sonnet-4-5@a",
                        "openai/gpt-4.1-mini@-",
                        "openai/gpt-4.1-mini@-",
                        "ollama/llama3.2@-");
        assertThat(h.session.fallback())
                .hasValueSatisfying(f ->
                        assertThat(f.revertAt()).isGreaterThanOrEqualTo(T0 + RetrySettings.DEFAULTS.refusalPinMs()));
    }

    @Test
    void withEveryKeyBlockedNothingIsSentAndTheFallbackModelAnswers() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, defaultChain()), PoolHarness.twoKeys());
        h.pool.block("anthropic", "a", T0 + 1_800_000, "usage_limit");
        h.pool.block("anthropic", "b", T0 + 900_000, "usage_limit");
        h.script(ok("gpt"));
        h.prompt("hi");
        assertThat(h.targets()).containsExactly("openai/gpt-4.1-mini@-");
        assertThat(h.all(RetryFallbackApplied.class))
                .singleElement()
                .satisfies(f -> assertThat(f.from()).isEqualTo(CLAUDE.selector()));
        h.clock.advance(600_000);
        h.script(ok("still gpt: claude's keys are blocked"));
        h.prompt("two");
        assertThat(h.targets()).last().isEqualTo("openai/gpt-4.1-mini@-");
    }

    @Test
    void withEveryKeyBlockedAndNoChainTheTurnWaitsForTheFirstKeyWithoutSendingAnything() throws Exception {
        h = new PoolHarness(dir, retry(0, 0, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.pool.block("anthropic", "a", T0 + 120_000, "usage_limit");
        h.pool.block("anthropic", "b", T0 + 60_000, "usage_limit");
        h.script(ok("from b"));
        h.prompt("hi");
        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@b");
        assertThat(h.requestTimes.getFirst()).isGreaterThanOrEqualTo(T0 + 60_000);
    }

    @Test
    void withEveryKeyBlockedForBillingTheTurnFailsAtOnceWithoutARequest() throws Exception {
        h = new PoolHarness(dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.oneKey());
        h.pool.block("anthropic", "a", T0 + 1_800_000, "billing");
        h.prompt("hi");
        assertThat(h.requests).isEmpty();
        assertThat(h.types()).doesNotContain("auto_retry_start");
        AssistantMessage last = (AssistantMessage) h.session.messages().getLast();
        assertThat(last.errorMessage())
                .contains("Every API key of provider 'anthropic' is blocked")
                .contains("'a' until")
                .contains("billing")
                .doesNotContain("sk-ant");
    }

    private static Function<ProviderRequest, AssistantMessage> shortUsageLimit() {
        return http(
                429,
                "Too Many Requests",
                "You have reached your usage limit. Please retry in 1s.",
                null,
                null,
                Map.of());
    }

    @Test
    void aRepeatedShortUsageLimitBlocksTheOnlyKeyNoLongerThanTheWaitDecided() throws Exception {
        h = new PoolHarness(dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.oneKey());
        h.script(shortUsageLimit(), shortUsageLimit(), ok("made it"), ok("next prompt at once"));
        h.prompt("hi");

        assertThat(h.timer.delays()).containsExactly(1_000L, 2_000L);
        assertThat(h.all(AutoRetryEnd.class))
                .singleElement()
                .satisfies(e -> assertThat(e.reason()).isEqualTo(RetryEndReason.SUCCEEDED));
        long secondFailure = h.requestTimes.get(1);
        assertThat(h.blocks.get("anthropic/a")).isEmpty();
        assertThat(h.requestTimes.get(2)).isEqualTo(secondFailure + 2_000);

        h.prompt("two");
        assertThat(h.requests).hasSize(4);
        assertThat(h.requestTimes.get(3)).isEqualTo(h.requestTimes.get(2));
    }

    @Test
    void aRepeatedShortUsageLimitThatEndsTheChainLeavesABlockNoLongerThanTheLastWait() throws Exception {
        h = new PoolHarness(dir, retry(1_500, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.oneKey());
        h.script(shortUsageLimit(), shortUsageLimit());
        h.prompt("hi");

        AutoRetryEnd end = h.all(AutoRetryEnd.class).getFirst();
        assertThat(end.reason()).isEqualTo(RetryEndReason.MAX_DELAY_EXCEEDED);
        assertThat(end.finalError())
                .startsWith("Rebound would wait 2000ms for this usage_limit (the provider asked "
                        + "for 1000ms), exceeds retry.maxDelayMs (1500ms)");
        assertThat(h.pool.blockedUntil("anthropic", "a")).hasValue(h.requestTimes.get(1) + 2_000);
    }

    @Test
    void aCallThatSentNothingBecauseEveryKeyWasBlockedIsNotARepeatOfTheUsageLimit() throws Exception {
        h = new PoolHarness(dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.oneKey());
        h.pool.block("anthropic", "a", T0 + 60_000, "usage_limit");
        h.script(shortUsageLimit(), ok("made it"));
        h.prompt("hi");

        assertThat(h.timer.delays()).containsExactly(60_000L, 1_000L);
        assertThat(h.requests).hasSize(2);
        assertThat(h.all(AutoRetryStart.class))
                .extracting(AutoRetryStart::attempt)
                .containsExactly(1, 2);
    }

    private static Function<ProviderRequest, AssistantMessage> longContextGate() {
        return http(
                429,
                "Too Many Requests",
                "Extra usage is required for long context requests.",
                "rate_limit_error",
                null,
                Map.of());
    }

    @Test
    void anEntitlementGateWithOneKeyIsTerminalAfterOneRequestAndBlocksNothing() throws Exception {
        h = new PoolHarness(dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.oneKey());
        h.script(longContextGate(), ok("a short chat still works on the same key"));
        h.prompt("a very long prompt");

        assertThat(h.requests).hasSize(1);
        assertThat(h.timer.delays()).isEmpty();
        assertThat(h.types()).doesNotContain("auto_retry_start", "auto_retry_end");
        assertThat(h.all(dev.rebound.event.Notice.class))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("does not include what this request needs")
                        .contains("did not retry"));
        assertThat(h.pool.isBlocked("anthropic", "a")).isFalse();

        h.prompt("short");
        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "anthropic/claude-sonnet-4-5@a");
    }

    @Test
    void anEntitlementGateSwitchesToAnotherKeyAtOnceWithoutBlockingTheFirst() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.script(longContextGate(), ok("b has extra usage"));
        h.prompt("a very long prompt");

        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "anthropic/claude-sonnet-4-5@b");
        assertThat(h.timer.delays()).containsExactly(0L);
        assertThat(h.all(CredentialSwitched.class))
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo("b"));
        assertThat(h.pool.isBlocked("anthropic", "a")).isFalse();
    }

    @Test
    void anEntitlementGateOnEveryKeyEndsTheTurnWithoutPingPong() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.script(longContextGate(), longContextGate());
        h.prompt("a very long prompt");

        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "anthropic/claude-sonnet-4-5@b");
        assertThat(h.timer.delays()).containsExactly(0L);
        AutoRetryEnd end = h.all(AutoRetryEnd.class).getFirst();
        assertThat(end.reason()).isEqualTo(RetryEndReason.NOT_RETRYABLE);
        assertThat(end.finalError()).contains("Extra usage is required");
        assertThat(h.pool.isBlocked("anthropic", "a")).isFalse();
        assertThat(h.pool.isBlocked("anthropic", "b")).isFalse();
    }

    @Test
    void anEntitlementGateFallsBackToTheNextModelWithoutCoolingTheGatedOneDown() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, defaultChain()), PoolHarness.oneKey());
        h.script(longContextGate(), ok("gpt answers"));
        h.prompt("a very long prompt");

        assertThat(h.targets()).containsExactly("anthropic/claude-sonnet-4-5@a", "openai/gpt-4.1-mini@-");
        assertThat(h.cooldownStore.get(CLAUDE.selector())).isEmpty();
    }

    @Test
    void aShorterBlockOrCooldownNeverShortensALongerOneEvenFromAnotherProcess() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        ExpiryStore otherProcess = ExpiryStore.open(dir.resolve("state/credential-blocks.json"), h.clock);
        otherProcess.extend("anthropic/a", T0 + 600_000, "usage_limit");
        h.pool.block("anthropic", "a", T0 + 1_000, "usage_limit");
        assertThat(h.pool.blockedUntil("anthropic", "a")).hasValue(T0 + 600_000);
        h.pool.block("anthropic", "a", T0 + 900_000, "usage_limit");
        assertThat(otherProcess.get("anthropic/a"))
                .hasValueSatisfying(e -> assertThat(e.until()).isEqualTo(T0 + 900_000));
    }

    @Test
    void theSessionStaysOnItsKeyAfterTheOtherKeysBlockEnds() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()), PoolHarness.twoKeys());
        h.script(usageLimit("60"), ok("b"), ok("still b"));
        h.prompt("one");
        h.clock.advance(120_000);
        h.prompt("two, after a's block ended");
        assertThat(h.targets())
                .containsExactly(
                        "anthropic/claude-sonnet-4-5@a",
                        "anthropic/claude-sonnet-4-5@b",
                        "anthropic/claude-sonnet-4-5@b");
    }

    @Test
    void aFallbackFailingWithoutAFallbackOfItsOwnRevertsForTheScheduledRetryOnceThePrimaryCooledDown()
            throws Exception {
        h = new PoolHarness(
                dir,
                retry(300_000, 0, RevertPolicy.COOLDOWN_EXPIRY, Map.of("default", List.of(GPT.selector()))),
                PoolHarness.oneKey());
        h.script(
                http(529, "Overloaded", "Overloaded", "overloaded_error", null, Map.of("retry-after", "10")),
                ok("gpt"),
                r -> {
                    h.clock.advance(20_000);
                    return EngineHarness.reasonlessAbort().apply(r);
                },
                ok("claude"));
        h.prompt("one");
        h.prompt("two");
        assertThat(h.targets())
                .containsExactly(
                        "anthropic/claude-sonnet-4-5@a",
                        "openai/gpt-4.1-mini@-",
                        "openai/gpt-4.1-mini@-",
                        "anthropic/claude-sonnet-4-5@a");
        assertThat(h.types())
                .containsSubsequence("agent_end", "retry_fallback_reverted", "model_changed", "auto_retry_start");
    }

    @Test
    void cooldownsAreSharedThroughTheStateFile() throws Exception {
        h = new PoolHarness(
                dir, retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, defaultChain()), PoolHarness.oneKey());
        h.script(overloaded(), ok("gpt"));
        h.prompt("hi");
        ExpiryStore other = ExpiryStore.open(dir.resolve("state/model-cooldowns.json"), h.clock);
        assertThat(other.get(CLAUDE.selector()))
                .hasValueSatisfying(e -> assertThat(e.until()).isEqualTo(T0 + 300_000));
    }
}
