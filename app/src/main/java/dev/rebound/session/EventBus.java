package dev.rebound.session;

import dev.rebound.event.SessionEvent;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a session's events to its listeners one at a time, in emission order, whatever thread emits them. A
 * listener's failure is logged and never reaches the session or the other listeners.
 */
final class EventBus {
    private static final Logger LOG = LoggerFactory.getLogger(EventBus.class);

    private final CopyOnWriteArrayList<ScopedSessionListener> listeners = new CopyOnWriteArrayList<>();
    private final Object order = new Object();

    AutoCloseable subscribe(ScopedSessionListener listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    void emit(SessionEvent event, EventScope scope) {
        synchronized (order) {
            for (ScopedSessionListener listener : listeners) {
                try {
                    listener.onEvent(event, scope);
                } catch (RuntimeException | LinkageError e) {
                    LOG.warn("A session listener failed on {}; the session goes on", event.type(), e);
                }
            }
        }
    }
}
