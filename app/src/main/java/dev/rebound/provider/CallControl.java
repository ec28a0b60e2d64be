package dev.rebound.provider;

import java.util.ArrayList;
import java.util.List;

/**
 * Lets one thread abort a provider call that another thread is running. Aborting runs the actions the provider
 * registered (closing the HTTP call) at once; an action registered after the abort runs immediately.
 */
public final class CallControl {
    private final List<Runnable> onAbort = new ArrayList<>();
    private boolean aborted;

    /** Aborts the call; idempotent. */
    public void abort() {
        List<Runnable> actions;
        synchronized (this) {
            if (aborted) {
                return;
            }
            aborted = true;
            actions = List.copyOf(onAbort);
            onAbort.clear();
        }
        actions.forEach(Runnable::run);
    }

    /** Whether {@link #abort()} was called. */
    public synchronized boolean isAborted() {
        return aborted;
    }

    /** Registers what to do on abort; runs it now if the call is already aborted. */
    public void onAbort(Runnable action) {
        synchronized (this) {
            if (!aborted) {
                onAbort.add(action);
                return;
            }
        }
        action.run();
    }
}
