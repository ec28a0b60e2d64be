package dev.rebound.ui.view;

import javafx.animation.AnimationTimer;

/**
 * Runs an action at most once per FX pulse however often it is asked for: a reply's deltas can arrive thousands of
 * times a second, each handed to the FX thread on its own, and re-rendering after every one of them would do the same
 * work many times per frame. {@link #request()} arms a one-shot {@link AnimationTimer}; the action runs at the next
 * pulse, before that pulse's layout.
 */
final class PulseCoalescer {
    private final Runnable action;
    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            stop();
            armed = false;
            action.run();
        }
    };
    private boolean armed;

    PulseCoalescer(Runnable action) {
        this.action = action;
    }

    /** Runs the action at the next pulse (once, however many requests come before it). Call on the FX thread. */
    void request() {
        if (!armed) {
            armed = true;
            timer.start();
        }
    }

    /** Drops a pending run (the view is being let go). */
    void cancel() {
        if (armed) {
            armed = false;
            timer.stop();
        }
    }
}
