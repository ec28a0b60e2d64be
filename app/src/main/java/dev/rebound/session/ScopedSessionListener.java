package dev.rebound.session;

import dev.rebound.event.SessionEvent;

/**
 * Receives a session's events with their {@link EventScope}, in order, synchronously on the thread that emitted them.
 * Like {@link SessionListener}, it must be quick, must not call back into the session, and what it throws is logged
 * and ignored.
 */
@FunctionalInterface
public interface ScopedSessionListener {
    void onEvent(SessionEvent event, EventScope scope);
}
