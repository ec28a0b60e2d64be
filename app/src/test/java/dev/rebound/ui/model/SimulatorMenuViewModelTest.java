package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.app.DesktopHarness;
import dev.rebound.ui.DesktopContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Simulate failures" menu and the welcome flag on the real session core and the real built-in simulator (no
 * provider configured), with a queue as the FX thread and a hand-driven ticker.
 */
class SimulatorMenuViewModelTest {
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path configDir;

    private final FxQueue fx = new FxQueue();
    private final ManualTicker ticker = new ManualTicker();
    private DesktopHarness harness;
    private DesktopContext context;
    private ChatWindowViewModel window;
    private SimulatorMenuViewModel menu;

    @BeforeEach
    void start() throws Exception {
        harness = DesktopHarness.startOffline(configDir, "{\"baseDelayMs\": 10}");
        context = harness.context(null);
        window = new ChatWindowViewModel(new ChatWindowViewModel.Dependencies(
                context.sessions(),
                context.catalogue(),
                context.settings(),
                fx,
                Runnable::run,
                context.clock(),
                context.zone(),
                ticker,
                context.simulator()));
        menu = window.simulatorMenu();
        window.start(null, List.of());
        fx.runUntil(() -> window.current() != null, WAIT);
    }

    @AfterEach
    void stop() {
        window.close();
        harness.close();
    }

    @Test
    void onTheBuiltInSimulatorTheMenuIsAvailableAndTheWelcomeShowsInTheEmptyChat() {
        assertThat(menu.availableProperty().get()).isTrue();
        assertThat(menu.unavailableReasonProperty().get()).isEmpty();
        assertThat(window.offlineProperty().get()).isTrue();
        assertThat(window.current().hasMessagesProperty().get()).isFalse();
        assertThat(window.modelNames().of(window.current().modelProperty().get()))
                .isEqualTo("Rebound Simulator (offline)");
    }

    @Test
    void queuedFailuresAreCountedUntilRequestsConsumeThem() throws Exception {
        menu.queue(SimulatedFailure.OVERLOAD_3);
        assertThat(menu.queuedProperty().get()).isEqualTo(3);
        assertThat(menu.queuedTextProperty().get()).isEqualTo("3 failures queued");
        assertThat(ticker.active())
                .as("the count is polled while failures are queued")
                .isEqualTo(1);

        ChatViewModel chat = window.current();
        chat.send("Hello");
        fx.runUntil(
                () -> chat.state() == ChatViewModel.State.IDLE && chat.items().size() == 2, WAIT);
        ticker.tick();

        assertThat(menu.queuedProperty().get()).isZero();
        assertThat(menu.queuedTextProperty().get()).isEqualTo("No failure queued");
        assertThat(ticker.active()).as("polling stops with nothing queued").isZero();
        assertThat(((AssistantItem) chat.items().get(1)).status()).isEqualTo(AssistantItem.Status.DONE);
        assertThat(chat.hasMessagesProperty().get()).isTrue();
    }

    @Test
    void clearDropsEveryQueuedFailure() {
        menu.queue(SimulatedFailure.RATE_LIMIT);
        menu.queue(SimulatedFailure.UNAUTHORIZED);
        assertThat(menu.queuedProperty().get()).isEqualTo(2);

        menu.clear();

        assertThat(menu.queuedProperty().get()).isZero();
        assertThat(context.simulator().queued()).isZero();
    }

    @Test
    void speedChoicesSetTheSimulatorsRate() {
        menu.chooseSpeed(2000);

        assertThat(context.simulator().tokensPerSecond()).isEqualTo(2000);
        assertThat(menu.speedProperty().get()).isEqualTo(2000);
    }

    @Test
    void savingARealProviderEndsTheWelcomeAndDisablesTheMenuWithTheReason() throws Exception {
        context.settings().update(new ObjectMapper().readTree("""
                {"model": "local/real-model",
                 "providers": {"local": {"api": "openai-completions", "baseUrl": "http://127.0.0.1:9/v1",
                                         "models": [{"id": "real-model", "name": "Real Model"}]}}}"""));
        fx.runUntil(() -> !window.offlineProperty().get(), WAIT);
        // The open chat stays on the simulator until another model is picked, but that model is gone.
        assertThat(menu.availableProperty().get()).isFalse();
        assertThat(menu.unavailableReasonProperty().get())
                .isEqualTo(
                        "simulator/rebound-simulator is no longer " + "configured; pick a model in the model picker.");

        window.current().chooseModel(dev.rebound.transcript.ModelRef.parse("local/real-model"));
        fx.runUntil(() -> menu.unavailableReasonProperty().get().contains("Real Model"), WAIT);

        assertThat(menu.unavailableReasonProperty().get())
                .startsWith("Failures can be simulated only on a " + "simulator model; Real Model is a real provider.");
        menu.queue(SimulatedFailure.OVERLOAD_3);
        assertThat(context.simulator().queued())
                .as("an unavailable menu queues nothing")
                .isZero();
    }

    @Test
    void aSimulatorProviderWithItsOwnBaseUrlIsNotScriptedFromHere() throws Exception {
        context.settings().update(new ObjectMapper().readTree("""
                {"providers": {"sim": {"api": "simulator", "baseUrl": "http://127.0.0.1:8089/v1",
                                       "models": [{"id": "rebound-simulator"}]}}}"""));
        window.current().chooseModel(dev.rebound.transcript.ModelRef.parse("sim/rebound-simulator"));
        fx.runUntil(
                () -> !menu.availableProperty().get()
                        && menu.unavailableReasonProperty().get().contains("separate simulator"),
                WAIT);

        assertThat(menu.unavailableReasonProperty().get())
                .isEqualTo("sim/rebound-simulator talks to a separate "
                        + "simulator (http://127.0.0.1:8089/v1); script that one with its --scenario file or the RPC "
                        + "simulate command.");
    }
}
