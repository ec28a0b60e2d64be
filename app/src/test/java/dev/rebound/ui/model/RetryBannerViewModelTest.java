package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.ErrorKind;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.RetrySettings;
import dev.rebound.settings.Settings;
import dev.rebound.settings.TimeoutSettings;
import dev.rebound.testing.MutableClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryBannerViewModelTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final ManualTicker ticker = new ManualTicker();
    private final RetryBannerViewModel banner =
            new RetryBannerViewModel(clock, ticker, new ModelNames(() -> Settings.DEFAULTS));

    private AutoRetryStart retry(int attempt, long delayMs) {
        return new AutoRetryStart(
                attempt, 10, delayMs, "Overloaded", ErrorKind.TRANSIENT, "local/m", "work", clock.millis() + delayMs);
    }

    @Test
    void countsDownWholeSecondsRoundedUpFromTheInjectedClock() {
        banner.show(retry(2, 4000), 529);

        assertThat(banner.state()).isEqualTo(RetryBannerViewModel.State.WAITING);
        assertThat(banner.headlineProperty().get()).isEqualTo("Retrying (2/10) in 4s… (Esc to cancel)");
        clock.advance(1);
        ticker.tick();
        assertThat(banner.headlineProperty().get()).isEqualTo("Retrying (2/10) in 4s… (Esc to cancel)");
        clock.advance(999);
        ticker.tick();
        assertThat(banner.headlineProperty().get()).isEqualTo("Retrying (2/10) in 3s… (Esc to cancel)");
        clock.advance(3000);
        ticker.tick();
        assertThat(banner.headlineProperty().get()).isEqualTo("Retrying (2/10) now… (Esc to cancel)");
    }

    @Test
    void summarisesKindStatusModelAndCredentialButNeverMore() {
        banner.show(retry(1, 500), 529);

        assertThat(banner.summaryProperty().get())
                .isEqualTo("Provider unavailable · HTTP 529 · local/m · key \"work\"");
        assertThat(banner.errorProperty().get()).isEqualTo("Overloaded");
        assertThat(banner.attempt()).isEqualTo(1);
    }

    @Test
    void theSummaryCallsAModelByItsDisplayName() {
        Settings named = new Settings(
                null,
                Map.of(),
                Map.of(
                        "local",
                        new ProviderConfig(
                                "local",
                                ProviderApi.SIMULATOR,
                                null,
                                List.of(new ModelConfig("m", 1000, "Rebound Simulator (offline)")))),
                RetrySettings.DEFAULTS,
                TimeoutSettings.DEFAULTS);
        RetryBannerViewModel shown = new RetryBannerViewModel(clock, ticker, new ModelNames(() -> named));

        shown.show(retry(1, 500), 529);

        assertThat(shown.summaryProperty().get())
                .isEqualTo("Provider unavailable · HTTP 529 · Rebound Simulator (offline) · key \"work\"");
        shown.hide();
    }

    @Test
    void theCountdownStopsWhenTheRetryStartsAndWhenTheChainEnds() {
        banner.show(retry(1, 2000), null);
        assertThat(ticker.active()).isEqualTo(1);

        banner.attemptStarted();
        assertThat(ticker.active()).isZero();
        assertThat(banner.state()).isEqualTo(RetryBannerViewModel.State.RETRYING);
        assertThat(banner.headlineProperty().get()).isEqualTo("Retrying (1/10)…");

        banner.show(retry(2, 2000), null);
        assertThat(ticker.active()).isEqualTo(1);
        banner.hide();
        assertThat(ticker.active()).isZero();
        assertThat(banner.state()).isEqualTo(RetryBannerViewModel.State.HIDDEN);
        assertThat(banner.attempt()).isZero();
    }

    @Test
    void aTickerThatFailsToStopDoesNotBreakHidingTheBanner() {
        RetryBannerViewModel failing = new RetryBannerViewModel(
                clock,
                (period, action) -> () -> {
                    throw new IllegalStateException("timeline gone");
                },
                new ModelNames(() -> Settings.DEFAULTS));
        failing.show(retry(1, 2000), null);

        failing.hide();

        assertThat(failing.state()).isEqualTo(RetryBannerViewModel.State.HIDDEN);
        assertThat(failing.cancellableProperty().get()).isFalse();
    }
}
