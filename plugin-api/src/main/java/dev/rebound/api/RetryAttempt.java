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
 * @param decidedBy what decided the wait after it, or null when no retry followed (and in records from before this
 *     member)
 */
public record RetryAttempt(
        int attempt,
        ErrorKind errorKind,
        Integer httpStatus,
        ModelRef model,
        String credential,
        Long delayMs,
        String errorMessage,
        RetryDecidedBy decidedBy) {

    /** An attempt whose wait's reason is not known: the constructor of the API before {@code decidedBy}. */
    public RetryAttempt(
            int attempt,
            ErrorKind errorKind,
            Integer httpStatus,
            ModelRef model,
            String credential,
            Long delayMs,
            String errorMessage) {
        this(attempt, errorKind, httpStatus, model, credential, delayMs, errorMessage, null);
    }
}
