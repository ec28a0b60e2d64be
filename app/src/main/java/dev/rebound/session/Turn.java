package dev.rebound.session;

import dev.rebound.provider.CallControl;
import java.util.concurrent.CompletableFuture;

/** The state of a running turn: one prompt and the provider calls it takes. */
final class Turn {
    final String id;
    final String prompt;
    final CompletableFuture<TurnOutcome> completion = new CompletableFuture<>();
    /** Set by {@link ChatSession#abort()} from any thread. */
    volatile boolean userAborted;
    /** The running provider call, if any; set and cleared under the session's lock. */
    volatile CallControl control;

    Turn(String id, String prompt) {
        this.id = id;
        this.prompt = prompt;
    }
}
