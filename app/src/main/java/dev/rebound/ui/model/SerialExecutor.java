package dev.rebound.ui.model;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time, in the order given, on another executor. A chat's calls to its session go through one, so
 * that two quick picks in the model picker (or Stop after Cancel) reach the session in the order the user made them,
 * although the shared background pool has many threads.
 */
final class SerialExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor delegate;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private boolean draining;

    SerialExecutor(Executor delegate) {
        this.delegate = delegate;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            tasks.add(task);
            if (draining) {
                return;
            }
            draining = true;
        }
        delegate.execute(this::drain);
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (this) {
                next = tasks.poll();
                if (next == null) {
                    draining = false;
                    return;
                }
            }
            try {
                next.run();
            } catch (RuntimeException e) {
                LOG.error("A call to the session failed", e);
            }
        }
    }
}
