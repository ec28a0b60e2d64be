package dev.rebound.api;

/**
 * One failed call of a retry chain.
 *
 * @param attempt 0 for the call that started the chain, then the retry number that produced this failure
 * @param errorKind why it was retryable, or null when it was not (the failure that ended the chain)
 * @param httpStatus the HTTP status, or null
 * @param model the model that failed
 * @param credential the credential label, or null; never a key
 * @param delayMs the wait scheduled after it, or null when no retry followed
 * @param errorMessage the error text
 */
public record RetryAttempt(
        int attempt,
        ErrorKind errorKind,
        Integer httpStatus,
        ModelRef model,
        String credential,
        Long delayMs,
        String errorMessage) {}
