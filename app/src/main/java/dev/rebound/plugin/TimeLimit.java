package dev.rebound.plugin;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one step of loading a plugin (reading its archive, starting it, creating its listeners) on a fresh daemon
 * thread, and gives up on it after a time limit, so that a plugin that throws anything or never returns cannot stop
 * the app from starting. A step that times out keeps running on its daemon thread; the host no longer waits for it.
 */
final class TimeLimit {
    private final Duration limit;

    TimeLimit(Duration limit) {
        this.limit = limit;
    }

    /** The result of a step, or why it did not give one. */
    sealed interface Outcome<T> {
        /** @param value what the step returned */
        record Done<T>(T value) implements Outcome<T> {
        }

        /** @param reason what went wrong, in a sentence for people */
        record Failed<T>(String reason, Throwable cause) implements Outcome<T> {
        }
    }

    /**
     * Runs the step.
     *
     * @param what what the step does, for the thread name and the timeout reason ("start()")
     */
    <T> Outcome<T> run(String what, Callable<T> step) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("rebound-plugin-loader").start(() -> {
            try {
                result.complete(step.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
                if (t instanceof VirtualMachineError vmError) {
                    throw vmError;
                }
            }
        });
        try {
            return new Outcome.Done<>(result.get(limit.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            return new Outcome.Failed<>(what + " did not return within " + limit.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            return new Outcome.Failed<>(ContextExtensionFactory.describe(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Failed<>(what + " was interrupted", e);
        }
    }
}
