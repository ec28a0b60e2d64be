package dev.rebound.ui.model;

import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.ModelRef;
import java.time.Duration;
import java.util.List;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The "Simulate failures" menu: available only while the chat shown talks to the built-in simulator (the built-in
 * provider, or a provider with {@code api: simulator} and no {@code baseUrl}); otherwise it says why. Queued failures
 * are counted live: while any is queued, the count is re-read from the simulator on every tick (requests consume them
 * on the session's thread). Confined to the FX thread.
 */
public final class SimulatorMenuViewModel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SimulatorMenuViewModel.class);
    /** The reply speeds offered, tokens per second; 0 is "instant". */
    public static final List<Double> SPEEDS = List.of(30.0, 120.0, 500.0, 2000.0, 0.0);

    static final Duration POLL = Duration.ofMillis(250);

    private final SimulatorPort port;
    private final Ticker ticker;
    private final ModelNames names;
    private final ReadOnlyBooleanWrapper available = new ReadOnlyBooleanWrapper(this, "available");
    private final ReadOnlyStringWrapper unavailableReason = new ReadOnlyStringWrapper(this, "unavailableReason", "");
    private final ReadOnlyIntegerWrapper queued = new ReadOnlyIntegerWrapper(this, "queued");
    private final ReadOnlyStringWrapper queuedText = new ReadOnlyStringWrapper(this, "queuedText", "");
    private final ReadOnlyDoubleWrapper speed = new ReadOnlyDoubleWrapper(this, "speed");
    private AutoCloseable polling;

    public SimulatorMenuViewModel(SimulatorPort port, Ticker ticker, ModelNames names) {
        this.port = port;
        this.ticker = ticker;
        this.names = names;
        speed.set(port.tokensPerSecond());
        unavailableReason.set("No chat is open yet.");
        refresh();
    }

    /** Whether failures can be queued for the model of the chat shown. */
    public ReadOnlyBooleanProperty availableProperty() {
        return available.getReadOnlyProperty();
    }

    /** Why the menu is unavailable (empty while available). */
    public ReadOnlyStringProperty unavailableReasonProperty() {
        return unavailableReason.getReadOnlyProperty();
    }

    /** How many requests will still get a scripted failure. */
    public ReadOnlyIntegerProperty queuedProperty() {
        return queued.getReadOnlyProperty();
    }

    /** {@code 3 failures queued}, or {@code No failure queued}. */
    public ReadOnlyStringProperty queuedTextProperty() {
        return queuedText.getReadOnlyProperty();
    }

    /** The reply speed, tokens per second (0: instant). */
    public ReadOnlyDoubleProperty speedProperty() {
        return speed.getReadOnlyProperty();
    }

    /** Queues a failure for the next request(s); ignored while unavailable. */
    public void queue(SimulatedFailure failure) {
        if (!available.get()) {
            return;
        }
        port.queue(failure);
        LOG.info("Simulated failure queued: {}", failure.label());
        refresh();
    }

    /** Drops every queued failure. */
    public void clear() {
        port.clear();
        LOG.info("Simulated failures cleared");
        refresh();
    }

    /** Sets the reply speed. */
    public void chooseSpeed(double tokensPerSecond) {
        port.tokensPerSecond(tokensPerSecond);
        speed.set(tokensPerSecond);
    }

    /** Re-reads the queue (also when the menu opens); polls while anything is queued. */
    public void refresh() {
        int count = port.queued();
        queued.set(count);
        queuedText.set(count == 0 ? "No failure queued" : count == 1 ? "1 failure queued" : count + " failures queued");
        if (count > 0 && polling == null) {
            polling = ticker.every(POLL, this::refresh);
        } else if (count == 0) {
            stopPolling();
        }
    }

    /** The chat shown now talks to {@code model} under {@code settings} (null: no chat or no model). */
    void modelShown(Settings settings, ModelRef model) {
        String reason = reasonUnavailable(settings, model);
        unavailableReason.set(reason);
        available.set(reason.isEmpty());
    }

    @Override
    public void close() {
        stopPolling();
    }

    private String reasonUnavailable(Settings settings, ModelRef model) {
        if (model == null) {
            return "No model is chosen, so there is nothing to simulate failures on.";
        }
        ProviderConfig provider = settings.provider(model.provider()).orElse(null);
        if (provider == null) {
            return names.of(model) + " is no longer configured; pick a model in the model picker.";
        }
        if (provider.api() != ProviderApi.SIMULATOR) {
            return "Failures can be simulated only on a simulator model; " + names.of(model)
                    + " is a real provider. To try failures, add a provider with \"api\": \"simulator\" in the "
                    + "settings and pick its model.";
        }
        if (provider.baseUrl() != null) {
            return names.of(model) + " talks to a separate simulator (" + provider.baseUrl() + "); script that one "
                    + "with its --scenario file or the RPC simulate command.";
        }
        return "";
    }

    private void stopPolling() {
        if (polling != null) {
            try {
                polling.close();
            } catch (Exception e) {
                LOG.debug("Stopping the queue poll failed", e);
            }
            polling = null;
        }
    }
}
