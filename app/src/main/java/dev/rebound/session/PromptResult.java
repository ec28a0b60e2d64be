package dev.rebound.session;

import java.util.concurrent.CompletableFuture;

/** The answer to {@link ChatSession#prompt}: the turn was accepted and runs, or it was refused with a reason. */
public sealed interface PromptResult {

    /**
     * The turn runs; {@code completion} completes when the turn and any retry chain it started have ended.
     */
    record Accepted(String turnId, CompletableFuture<TurnOutcome> completion) implements PromptResult {}

    /** The prompt was refused; nothing was sent. */
    record Rejected(String reason) implements PromptResult {}
}
