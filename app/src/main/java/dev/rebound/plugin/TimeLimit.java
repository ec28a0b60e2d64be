package dev.rebound.plugin;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs one step of loading or stopping a plugin (reading its archive, starting it, creating its listeners) on a fresh
 * daemon thread, and gives up on it after a time limit, so that a plugin that throws anything or never returns cannot
 * stop the app from starting. A step that times out keeps running on its daemon thread; the host no longer waits for
 * it, and what it returns late goes to the step's {@code late} handler instead (on that thread): exactly one of the
 * outcome and the handler sees a value.
 */
final class TimeLimit {
    private final Duration limit;

    TimeLimit(Duration limit) {
        this.limit = limit;
    }

    /** The result of a step, or why it did not give one. */
    sealed interface Outcome<T> {
        /** @param value what the step returned */
        record Done<T>(T value) implements Outcome<T> {}

        /** @param reason what went wrong, in a sentence for people */
        record Failed<T>(String reason, Throwable cause) implements Outcome<T> {}
    }

    /**
     * Runs the step within this limit; a late result is dropped.
     *
     * @param what what the step does, for the timeout reason ("start()")
     */
    <T> Outcome<T> run(String what, Callable<T> step) {
        return run(what, limit, step, value -> {});
    }

    /**
     * Runs the step within the given limit.
     *
     * @param what what the step does, for the timeout reason ("start()")
     * @param late given what the step returns after the host gave up on it, on the step's thread
     */
    <T> Outcome<T> run(String what, Duration within, Callable<T> step, Consumer<? super T> late) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("rebound-plugin-loader").start(() -> {
            try {
                T value = step.call();
                if (!result.complete(value)) {
                    late.accept(value);
                }
            } catch (Throwable t) {
                result.completeExceptionally(t);
                if (t instanceof VirtualMachineError vmError) {
                    throw vmError;
                }
            }
        });
        try {
            return new Outcome.Done<>(result.get(within.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            if (result.completeExceptionally(e)) {
                return new Outcome.Failed<>(what + " did not return within " + within.toMillis() + " ms", e);
            }
            return settled(result); // it completed just as the limit passed: take its outcome
        } catch (ExecutionException e) {
            return failed(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.completeExceptionally(e);
            return new Outcome.Failed<>(what + " was interrupted", e);
        }
    }

    private static <T> Outcome<T> settled(CompletableFuture<T> result) {
        try {
            return new Outcome.Done<>(result.join());
        } catch (CompletionException e) {
            return failed(e.getCause());
        }
    }

    private static <T> Outcome<T> failed(Throwable cause) {
        return new Outcome.Failed<>(ContextExtensionFactory.describe(cause), cause);
    }
}
