package dev.rebound.ui.model;

import dev.rebound.event.AutoRetryStart;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retry banner over the composer: shown from {@code auto_retry_start} until {@code auto_retry_end}, with a live
 * countdown to the retry. It decides nothing: Cancel Retry and Retry now go to the session through the chat's
 * view-model. Confined to the FX thread.
 */
public final class RetryBannerViewModel {
    private static final Logger LOG = LoggerFactory.getLogger(RetryBannerViewModel.class);

    /** What the banner shows. */
    public enum State {
        /** No retry chain runs. */
        HIDDEN,
        /** A retry is scheduled; the countdown runs and both buttons act. */
        WAITING,
        /** The retried call is running; the banner stays until the chain ends. */
        RETRYING
    }

    static final Duration TICK = Duration.ofMillis(200);

    private final Clock clock;
    private final Ticker ticker;
    private final ModelNames names;
    private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(this, "state", State.HIDDEN);
    private final ReadOnlyStringWrapper headline = new ReadOnlyStringWrapper(this, "headline", "");
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(this, "summary", "");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyBooleanWrapper cancellable = new ReadOnlyBooleanWrapper(this, "cancellable");
    private AutoRetryStart current;
    private AutoCloseable ticking;
    private boolean cancelAsked;

    /** @param names what models are called in the summary */
    public RetryBannerViewModel(Clock clock, Ticker ticker, ModelNames names) {
        this.clock = clock;
        this.ticker = ticker;
        this.names = names;
    }

    public ReadOnlyObjectProperty<State> stateProperty() {
        return state.getReadOnlyProperty();
    }

    public State state() {
        return state.get();
    }

    /** {@code Retrying (2/10) in 4s… (Esc to cancel)}, counting down. */
    public ReadOnlyStringProperty headlineProperty() {
        return headline.getReadOnlyProperty();
    }

    /**
     * Whether Cancel Retry does something: while the wait runs, and while the retried call runs until a cancel was
     * asked for (the call then finishes, but no further retry starts).
     */
    public ReadOnlyBooleanProperty cancellableProperty() {
        return cancellable.getReadOnlyProperty();
    }

    /** The error summary: kind, HTTP status, model and credential label. */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** The provider's error message, unchanged. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The retry number shown, or 0 when hidden (Retry now passes it so a late click cannot skip a retry). */
    public int attempt() {
        return current == null ? 0 : current.attempt();
    }

    /**
     * A retry was scheduled.
     *
     * @param httpStatus the HTTP status of the failed call, or null
     */
    void show(AutoRetryStart start, Integer httpStatus) {
        current = start;
        summary.set(summaryOf(start, httpStatus, names));
        error.set(start.errorMessage() == null ? "" : start.errorMessage());
        state.set(State.WAITING);
        cancelAsked = false;
        cancellable.set(true);
        tick();
        if (ticking == null) {
            ticking = ticker.every(TICK, this::tick);
        }
    }

    /** The scheduled retry started. */
    void attemptStarted() {
        if (current == null) {
            return;
        }
        stopTicking();
        state.set(State.RETRYING);
        showRetrying();
    }

    /** Cancel Retry was pressed while the retried call runs: that call may still answer, nothing is retried after it. */
    void cancelRequested() {
        if (current == null) {
            return;
        }
        cancelAsked = true;
        cancellable.set(false);
        if (state.get() == State.RETRYING) {
            showRetrying();
        }
    }

    private void showRetrying() {
        String counter = "Retrying (" + current.attempt() + "/" + current.maxAttempts() + ")…";
        headline.set(
                cancelAsked ? counter + " Cancelled: if this attempt fails too, no further retry is made." : counter);
    }

    /** The chain ended. */
    void hide() {
        stopTicking();
        current = null;
        cancellable.set(false);
        state.set(State.HIDDEN);
        headline.set("");
        summary.set("");
        error.set("");
    }

    /** Recomputes the countdown from the clock. */
    void tick() {
        if (current == null || state.get() != State.WAITING) {
            return;
        }
        long remainingMs = current.retryAt() - clock.millis();
        String counter = "(" + current.attempt() + "/" + current.maxAttempts() + ")";
        if (remainingMs <= 0) {
            headline.set("Retrying " + counter + " now… (Esc to cancel)");
        } else {
            long seconds = (remainingMs + 999) / 1000;
            headline.set("Retrying " + counter + " in " + seconds + "s… (Esc to cancel)");
        }
    }

    private void stopTicking() {
        if (ticking != null) {
            AutoCloseable stopping = ticking;
            ticking = null;
            try {
                stopping.close();
            } catch (Exception e) {
                // Called from event handlers on the FX thread: a ticker that cannot stop must not break the chat.
                LOG.warn("The retry countdown did not stop", e);
            }
        }
    }

    static String summaryOf(AutoRetryStart start, Integer httpStatus, ModelNames names) {
        List<String> parts = new ArrayList<>();
        parts.add(describe(start.errorKind()));
        if (httpStatus != null) {
            parts.add("HTTP " + httpStatus);
        }
        if (start.model() != null) {
            parts.add(names.of(start.model()));
        }
        if (start.credential() != null) {
            parts.add("key \"" + start.credential() + "\"");
        }
        return String.join(" · ", parts);
    }

    private static String describe(dev.rebound.event.ErrorKind kind) {
        if (kind == null) {
            return "Error";
        }
        return switch (kind) {
            case TRANSIENT -> "Provider unavailable";
            case RATE_LIMIT -> "Rate limited";
            case USAGE_LIMIT -> "Usage limit reached";
            case STALE_REPLAY -> "Stale conversation state";
            case REFUSAL -> "Refused by the provider's safety filter";
            case REASONLESS_ABORT -> "Call stopped without a reason";
        };
    }
}
