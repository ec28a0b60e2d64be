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
    /** The prompt this turn replaces (a regenerate or an edit), or null for a new prompt. */
    final String replaces;
    /** Why: {@code regenerate} or {@code edit}; null for a new prompt. */
    final String replaceReason;

    Turn(String id, String prompt) {
        this(id, prompt, null, null);
    }

    Turn(String id, String prompt, String replaces, String replaceReason) {
        this.id = id;
        this.prompt = prompt;
        this.replaces = replaces;
        this.replaceReason = replaceReason;
    }
}
