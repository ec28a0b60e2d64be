package dev.rebound.ui.model;

import dev.rebound.api.AutoRetryStart;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The retry banner over the composer: shown from {@code auto_retry_start} until {@code auto_retry_end}, with a live
 * countdown to the retry. It decides nothing: Cancel Retry and Retry now go to the session through the chat's
 * view-model. Confined to the FX thread.
 */
public final class RetryBannerViewModel {

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
    private AutoRetryStart current;
    private AutoCloseable ticking;

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
        headline.set("Retrying (" + current.attempt() + "/" + current.maxAttempts() + ")…");
    }

    /** The chain ended. */
    void hide() {
        stopTicking();
        current = null;
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
            try {
                ticking.close();
            } catch (Exception e) {
                throw new IllegalStateException("the countdown ticker failed to stop", e);
            }
            ticking = null;
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

    private static String describe(dev.rebound.api.ErrorKind kind) {
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
