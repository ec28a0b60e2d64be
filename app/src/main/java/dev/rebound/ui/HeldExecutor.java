package dev.rebound.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * An executor that holds its tasks until {@link #release()}, then passes them on, in order, and every later task at
 * once. The desktop's start makes the window on the main thread while the FX thread parses the theme: the window's
 * models already hand work to the FX thread then (a chat list read in the background, a focus request), and that work
 * must wait until the FX thread owns the window's nodes. Thread-safe.
 */
final class HeldExecutor implements Executor {
    private final Executor target;
    /** Null once released; guarded by {@code this}. */
    private List<Runnable> held = new ArrayList<>();

    HeldExecutor(Executor target) {
        this.target = Objects.requireNonNull(target, "target");
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        synchronized (this) {
            if (held != null) {
                held.add(task);
                return;
            }
        }
        target.execute(task);
    }

    /** Passes the held tasks on, in the order they came, and from now on every task at once. */
    void release() {
        synchronized (this) {
            if (held == null) {
                return;
            }
            // Passed on while holding the lock, so that a task arriving meanwhile cannot overtake them.
            held.forEach(target::execute);
            held = null;
        }
    }
}
