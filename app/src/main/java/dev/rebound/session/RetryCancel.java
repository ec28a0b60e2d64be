package dev.rebound.session;

/** What a Cancel Retry found and did, decided in one step with the retry chain's state. */
public enum RetryCancel {
    /** No retry chain was running: nothing to cancel. */
    NONE,
    /** A retry was waiting: the wait ended and the chain ends as cancelled. */
    WAIT_CANCELLED,
    /**
     * The retried request was already running: it goes on (a reply it brings is kept), but if it fails the chain ends
     * as cancelled instead of retrying again.
     */
    RUNNING_REQUEST_FLAGGED
}
