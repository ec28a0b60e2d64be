package dev.rebound.session;

import dev.rebound.event.SessionEvent;

/**
 * Receives a session's events in order, synchronously on the thread that emitted them. It must be quick and must not
 * call back into the session; an exception it throws is logged and ignored.
 */
@FunctionalInterface
public interface SessionListener {
    void onEvent(SessionEvent event);
}
